import { ChangePasswordHandler } from './change-password.handler';
import { ChangeUserRolesHandler } from './change-user-roles.handler';
import { CreateApiTokenHandler } from './create-api-token.handler';
import { CreateUserHandler } from './create-user.handler';
import { DeleteAccountHandler } from './delete-account.handler';
import { LoginHandler } from './login.handler';
import { LogoutHandler } from './logout.handler';
import { ConfirmPasswordResetHandler } from './confirm-password-reset.handler';
import { OpenSessionHandler } from './open-session.handler';
import { RequestPasswordResetHandler } from './request-password-reset.handler';
import { RefreshHandler } from './refresh.handler';
import { RevokeApiTokenHandler } from './revoke-api-token.handler';
import { RegisterAccountHandler } from './register-account.handler';
import { RegisterHandler } from './register.handler';
import { SendPasswordLinkHandler } from './send-password-link.handler';
import { SetUserActiveHandler } from './set-user-active.handler';
import { UpdateProfileHandler } from './update-profile.handler';

export const identityCommandHandlers = [
  RegisterHandler,
  LoginHandler,
  LogoutHandler,
  RefreshHandler,
  UpdateProfileHandler,
  ChangePasswordHandler,
  RequestPasswordResetHandler,
  ConfirmPasswordResetHandler,
  DeleteAccountHandler,
  SetUserActiveHandler,
  CreateUserHandler,
  ChangeUserRolesHandler,
  RegisterAccountHandler,
  SendPasswordLinkHandler,
  OpenSessionHandler,
  CreateApiTokenHandler,
  RevokeApiTokenHandler,
];

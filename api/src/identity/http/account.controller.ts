import { Body, Controller, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import {
  AuthResponse,
  ChangePasswordRequest,
  LoginRequest,
  LogoutRequest,
  MessageAnswer,
  PasswordResetConfirm,
  PasswordResetRequest,
  ProfileUpdate,
  RefreshRequest,
  RefreshResponse,
  RegisterRequest,
  User,
} from '@meshwork/contracts';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { ChangePassword } from '../application/change-password.handler';
import { DeleteAccount } from '../application/delete-account.handler';
import { Login } from '../application/login.handler';
import { Logout } from '../application/logout.handler';
import { ConfirmPasswordReset } from '../application/confirm-password-reset.handler';
import { RequestPasswordReset } from '../application/request-password-reset.handler';
import { Refresh } from '../application/refresh.handler';
import { Register } from '../application/register.handler';
import { UpdateProfile } from '../application/update-profile.handler';
import { toUser } from '../application/user-directory';
import { AuthGuard, type Caller, CurrentCaller, OptionalAuthGuard, SessionGuard } from './auth.guard';
import { RateLimited } from './rate-limit.guard';

const RESET_SENT = 'If an account exists for that email, we have sent a link to reset its password.';

/** The account calls of spec section 7. Thin: validate, send the command, answer. */
@Tag('account')
@Controller()
export class AccountController {
  constructor(private readonly commands: CommandBus) {}

  @Post('register')
  @RateLimited('register')
  @Route({ summary: 'Create an account; answers with both tokens and the user.', response: AuthResponse })
  register(@Body(new ZodPipe(RegisterRequest)) body: z.output<typeof RegisterRequest>): Promise<AuthResponse> {
    return this.commands.execute(new Register(body.email, body.username, body.password, false, new Date()));
  }

  @Post('login')
  @HttpCode(200)
  @RateLimited('login')
  @Route({ summary: 'Sign in with email and password; answers with both tokens and the user.', response: AuthResponse, errors: [403] })
  login(@Body(new ZodPipe(LoginRequest)) body: z.output<typeof LoginRequest>): Promise<AuthResponse> {
    return this.commands.execute(new Login(body.email, body.password, body.hardware_fingerprint, new Date()));
  }

  @Post('logout')
  @HttpCode(200)
  @UseGuards(OptionalAuthGuard)
  @Route({ summary: 'End the session of the refresh token (or of the bearer token).', response: MessageAnswer })
  async logout(
    @Body(new ZodPipe(LogoutRequest)) body: z.output<typeof LogoutRequest>,
    @CurrentCaller() caller: Caller | null,
  ): Promise<{ message: string }> {
    await this.commands.execute(new Logout(body.refresh_token ?? null, caller?.sessionId ?? null, caller?.userId ?? null, new Date()));
    return { message: 'Logged out successfully' };
  }

  @Post('refresh')
  @HttpCode(200)
  @Route({ summary: 'Spend a refresh token for a new access token and the next refresh token.', response: RefreshResponse, errors: [401] })
  refresh(@Body(new ZodPipe(RefreshRequest)) body: z.output<typeof RefreshRequest>): Promise<RefreshResponse> {
    return this.commands.execute(new Refresh(body.refresh, new Date()));
  }

  @Get('profile')
  @UseGuards(AuthGuard)
  @Route({ response: User })
  profile(@CurrentCaller() caller: Caller): User {
    return toUser(caller.user);
  }

  @Patch('profile')
  @UseGuards(AuthGuard)
  @Route({ response: User })
  updateProfile(@CurrentCaller() caller: Caller, @Body(new ZodPipe(ProfileUpdate)) body: z.output<typeof ProfileUpdate>): Promise<User> {
    return this.commands.execute(new UpdateProfile(caller.userId, body, new Date()));
  }

  @Post('change-password')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @Route({ summary: 'Change the password, given the current one.', response: MessageAnswer })
  async changePassword(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(ChangePasswordRequest)) body: z.output<typeof ChangePasswordRequest>,
  ) {
    await this.commands.execute(new ChangePassword(caller.userId, caller.sessionId, body.old_password, body.new_password, new Date()));
    return { message: 'Password changed successfully.' };
  }

  @Post('users/delete-account')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @Route({ summary: 'Delete the account; personal data in the event log becomes unreadable.', response: MessageAnswer })
  async deleteAccount(@CurrentCaller() caller: Caller) {
    await this.commands.execute(new DeleteAccount(caller.userId, new Date()));
    return { message: 'Your account has been deleted.' };
  }

  @Post(['password-reset', 'auth/forgot-password'])
  @HttpCode(200)
  @RateLimited('password-reset')
  @Route({ summary: 'Email a reset link; the answer is the same whether or not the account exists.', response: MessageAnswer })
  async requestReset(@Body(new ZodPipe(PasswordResetRequest)) body: z.output<typeof PasswordResetRequest>) {
    await this.commands.execute(new RequestPasswordReset(body.email, new Date()));
    return { message: RESET_SENT };
  }

  @Post(['password-reset-confirm', 'auth/reset-password'])
  @HttpCode(200)
  @RateLimited('password-reset')
  @Route({ summary: 'Set a new password with the emailed reset token.', response: MessageAnswer })
  async confirmReset(@Body(new ZodPipe(PasswordResetConfirm)) body: z.output<typeof PasswordResetConfirm>) {
    await this.commands.execute(new ConfirmPasswordReset(body.token, body.password, new Date()));
    return { message: 'Password reset successful.' };
  }
}

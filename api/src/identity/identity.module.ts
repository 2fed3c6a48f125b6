import { Module } from '@nestjs/common';
import { identityCommandHandlers } from './application';
import { DeviceSessions } from './application/device-sessions';
import { IdentityContext } from './application/identity-context';
import { IdentityHistory } from './application/identity-history';
import { PersonalFields } from './application/personal-fields';
import { SessionIssuer } from './application/session-issuer';
import { SignedInUserCache } from './application/signed-in-user-cache';
import { UserDirectory } from './application/user-directory';
import { ApiTokensQuery } from './application/api-tokens.query';
import { AccountController } from './http/account.controller';
import { ApiTokensAdminController, ApiTokensController } from './http/api-tokens.controller';
import { AccessTokenStrategy } from './http/access-token.strategy';
import { AuthGuard, ConsoleUserGuard, SessionGuard, StaffGuard } from './http/auth.guard';
import { RateLimitGuard } from './http/rate-limit.guard';

/** Accounts and sessions: registration, sign-in, tokens, profile, passwords. */
@Module({
  controllers: [AccountController, ApiTokensController, ApiTokensAdminController],
  providers: [
    IdentityContext,
    IdentityHistory,
    PersonalFields,
    SignedInUserCache,
    SessionIssuer,
    DeviceSessions,
    UserDirectory,
    ApiTokensQuery,
    AccessTokenStrategy,
    AuthGuard,
    SessionGuard,
    StaffGuard,
    ConsoleUserGuard,
    RateLimitGuard,
    ...identityCommandHandlers,
  ],
  exports: [
    SessionGuard,
    IdentityHistory,
    PersonalFields,
    SignedInUserCache,
    DeviceSessions,
    AccessTokenStrategy,
    AuthGuard,
    StaffGuard,
    ConsoleUserGuard,
    UserDirectory,
  ],
})
export class IdentityModule {}

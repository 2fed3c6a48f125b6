import { Module } from '@nestjs/common';
import { identityCommandHandlers } from './application';
import { DeviceSessions } from './application/device-sessions';
import { IdentityContext } from './application/identity-context';
import { IdentityHistory } from './application/identity-history';
import { PersonalFields } from './application/personal-fields';
import { SessionIssuer } from './application/session-issuer';
import { SignedInUserCache } from './application/signed-in-user-cache';
import { UserDirectory } from './application/user-directory';
import { AccountController } from './http/account.controller';
import { AccessTokenStrategy } from './http/access-token.strategy';
import { AuthGuard, ConsoleUserGuard, StaffGuard } from './http/auth.guard';
import { RateLimitGuard } from './http/rate-limit.guard';

/** Accounts and sessions: registration, sign-in, tokens, profile, passwords. */
@Module({
  controllers: [AccountController],
  providers: [
    IdentityContext,
    IdentityHistory,
    PersonalFields,
    SignedInUserCache,
    SessionIssuer,
    DeviceSessions,
    UserDirectory,
    AccessTokenStrategy,
    AuthGuard,
    StaffGuard,
    ConsoleUserGuard,
    RateLimitGuard,
    ...identityCommandHandlers,
  ],
  exports: [
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

// The identity context's public face: only what other contexts call. Its events (types and
// stored names) are in events.ts. Anything else in identity/ is its own business (ESLint
// refuses deep imports from outside).
export { ChangeUserRoles } from './application/change-user-roles.handler';
export { CreateUser } from './application/create-user.handler';
export { DeleteAccount } from './application/delete-account.handler';
export { DeviceSessions, type DeviceTokens } from './application/device-sessions';
export { EndBillingForDeletedAccount } from './application/end-billing-for-deleted-account.command';
export { IdentityHistory } from './application/identity-history';
// The devices keep their personal fields in identity's vault.
export { PersonalFields } from './application/personal-fields';
export { RecordDeviceSignIn } from './application/record-device-sign-in.command';
export { SetUserActive } from './application/set-user-active.handler';
// Billing forgets a user whose plan it changed.
export { SignedInUserCache } from './application/signed-in-user-cache';
export { UpdateProfile } from './application/update-profile.handler';
export { USER_PLANS, type UserPlan, type UserPlans } from './application/user-plans.port';
export { toUser, UserDirectory, type UserNames } from './application/user-directory';
export { AuthGuard, type Caller, ConsoleUserGuard, CurrentCaller, SessionGuard, StaffGuard } from './http/auth.guard';
export { RateLimited } from './http/rate-limit.guard';
export { IdentityModule } from './identity.module';
// Another context's read model fed by user events reads their personal fields through this codec (decode).
export type { UserEventCodec } from './infrastructure/user-event-codec';
export { USERS_ENTITIES, UserRecord } from './projections/users.entities';

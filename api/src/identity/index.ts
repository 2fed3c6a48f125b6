// The identity context's public face: what other contexts may use. Anything else in
// identity/ is its own business (ESLint refuses deep imports from outside).
export { ChangeUserRoles } from './application/change-user-roles.handler';
export { CreateUser } from './application/create-user.handler';
export { DeleteAccount } from './application/delete-account.handler';
export { type DeviceRefresh, DeviceSessions, type DeviceTokens } from './application/device-sessions';
export { EndBillingForDeletedAccount } from './application/end-billing-for-deleted-account.command';
export { IdentityContext } from './application/identity-context';
export { RecordDeviceSignIn } from './application/record-device-sign-in.command';
export { SetUserActive } from './application/set-user-active.handler';
export { UpdateProfile } from './application/update-profile.handler';
export { toUser, UserDirectory, type UserRow, USERS_TABLE } from './application/user-directory';
export type { UserNames } from './application/user-directory';
export type { UserEvent } from './domain/user.events';
export { AuthGuard, type Caller, ConsoleUserGuard, CurrentCaller, OptionalAuthGuard, StaffGuard } from './http/auth.guard';
export { RateLimited } from './http/rate-limit.guard';
export { IdentityModule } from './identity.module';
// Another context's read model fed by user events reads their personal fields through this codec (decode).
export type { UserEventCodec } from './infrastructure/user-event-codec';
export { USERS_ENTITIES, UserRecord } from './projections/users.entities';
export { USERS_PROJECTION } from './projections/users.projection';

import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { AdminUsersController } from './users/admin-users.controller';
import { AdminUsers } from './users/admin-users.query';

/** The staff console's resources (read side), in react-admin's REST dialect. */
@Module({ imports: [IdentityModule], controllers: [AdminUsersController], providers: [AdminUsers] })
export class AdminModule {}

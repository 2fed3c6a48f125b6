import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { type AuthResponse, RegisterRequest } from '@meshwork/contracts';
import { AccountsModule } from '../accounts/accounts.module';
import { ProjectionsModule } from '../platform/projections/projections.module';
import { ConfigError, loadConfig } from '../platform/config/config';
import { PlatformModule } from '../platform/platform.module';
import { migrations } from '../migrations';
import { buildReadModels } from '../read-models';
import { ChangeUserRoles } from '../identity/application/change-user-roles.handler';
import { Register } from '../identity/application/register.handler';
import { IdentityModule } from '../identity/identity.module';

/**
 * `npm run create-staff -- --email a@b.co --password '...' [--username name] [--auditor]`: the
 * only way to make the first staff account (or an auditor, read-only staff). Same rules as
 * registration; the events record it.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, username: { type: 'string' }, auditor: { type: 'boolean' } },
  });
  const username = values.username ?? values.email?.split('@')[0]?.replace(/[^\w.@+-]/g, '') ?? '';
  const parsed = RegisterRequest.safeParse({ email: values.email, username, password: values.password, password_confirm: values.password });
  if (!parsed.success) {
    console.error(
      `Usage: npm run create-staff -- --email <email> --password <password> [--username <name>] [--auditor]\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
    process.exit(2);
  }
  const config = loadConfig();
  // Runs the read models too, so the new account is visible at once even if the api is down.
  @Module({
    imports: [
      PlatformModule.forRoot(config, 'meshwork-create-staff', migrations),
      CqrsModule.forRoot(),
      // The answer's user object has a plan part, which the accounts read side provides.
      AccountsModule,
      IdentityModule,
      ProjectionsModule.forRoot(buildReadModels),
    ],
  })
  class CreateStaffModule {}
  const app = await NestFactory.createApplicationContext(CreateStaffModule, { logger: ['error'] });
  try {
    const { email, password } = parsed.data;
    await app.init();
    const auditor = values.auditor === true;
    const bus = app.get(CommandBus);
    const { user } = await bus.execute<Register, AuthResponse>(
      new Register(email, parsed.data.username, password, !auditor, new Date(), 'create-staff'),
    );
    if (auditor) await bus.execute(new ChangeUserRoles(user.id, { isStaff: false, isAuditor: true }, new Date()));
    console.log(`${auditor ? 'Auditor' : 'Staff'} account ${email} created.`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Could not create the staff account: ${(error as Error).message}`);
  process.exit(1);
});

import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '../../api/src/platform/config/config';
import { logger } from '../../api/src/platform/logging/logger';
import { closeOnSignals } from '../../api/src/main';
import { PlatformModule } from '../../api/src/platform/platform.module';
import { buildReadModels } from '../../api/src/read-models';
import { migrations } from '../../api/src/migrations';
import { ProjectionsModule } from '../../api/src/platform/projections/projections.module';

/**
 * The projections worker (full mode): runs the read-model runners and the Kafka relay in
 * a process of its own. Start as many as you like; each projection runs in one at a time.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  @Module({ imports: [PlatformModule.forRoot(config, 'meshwork-projections', migrations), ProjectionsModule.forRoot(buildReadModels)] })
  class WorkerModule {}
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: false });
  closeOnSignals(app);
  logger.info('projections worker running');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else logger.error({ err: error }, 'projections worker failed to start');
  process.exit(1);
});

import type { INestApplication } from '@nestjs/common';
import { APP_CONFIG } from '../platform/config/config';
import { SECRETS } from '../platform/config/secrets';
import { DATABASE } from '../platform/database/database';
import { EVENT_STORE } from '../platform/event-store/event-store.port';
import { KAFKA } from '../platform/platform.module';
import { ProjectionsHost } from '../platform/projections/projections-host';
import { OBJECT_STORAGE } from '../platform/storage/object-storage';
import type { RunnerOptions } from '../platform/projections/projection-runner';
import { buildReadModels } from '../read-models';

/**
 * The projection runners and the relay as a worker runs them, beside an app started with
 * PROJECTIONS_IN_PROCESS=false, with options of the test's own (a short retry bound, say).
 * Stop them with `onApplicationShutdown()`.
 */
export async function startWorkers(app: INestApplication, options: RunnerOptions): Promise<ProjectionsHost> {
  const get = <T>(token: symbol) => app.get<symbol, T>(token);
  const workers = new ProjectionsHost(
    get(APP_CONFIG),
    get(DATABASE),
    get(EVENT_STORE),
    get(KAFKA),
    get(SECRETS),
    get(OBJECT_STORAGE),
    buildReadModels,
    options,
  );
  await workers.onApplicationBootstrap();
  return workers;
}

/** Retries quick enough for a test to see a projection stall. */
export const quickStall: RunnerOptions = { retry: { attempts: 2, firstDelayMs: 50, pollMs: 50 } };

import type { INestApplication } from '@nestjs/common';
import { APP_CONFIG } from '../../../api/src/platform/config/config';
import { SECRETS } from '../../../api/src/platform/config/secrets';
import { DATABASE } from '../../../api/src/platform/database/database';
import { EVENT_STORE } from '../../../api/src/platform/event-store/event-store.port';
import { KAFKA } from '../../../api/src/platform/platform.module';
import { ProjectionsHost } from '../../../api/src/platform/projections/projections-host';
import { OBJECT_STORAGE } from '../../../api/src/platform/storage/object-storage';
import type { RunnerOptions } from '../../../api/src/platform/projections/projection-runner';
import { buildReadModels } from '../../../api/src/read-models';

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

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { createApp } from '../../../api/src/main';
import { migrations } from '../../../api/src/migrations';
import { type AppConfig, loadConfig } from '../../../api/src/platform/config/config';
import { createTestDatabase, type TestDatabase } from './test-database';
import { required } from '../infra';
import { minioClient, removeBucket } from './upload-kit';
import { logger } from '../../../api/src/platform/logging/logger';
import { addFailureSection } from '../failure-report';
import { READ_YOUR_WRITES_MS, waitForProjection } from '../../../api/src/platform/projections/projection-waiter';

export interface TestApp {
  app: INestApplication;
  db: TestDatabase;
  /** The bucket the api keeps its objects in: the app's own (`shared`'s for a second instance). */
  bucket: string;
  close(): Promise<void>;
}

/**
 * The whole api in full mode against the real servers of `npm test`, on a database and a
 * bucket of its own, or on `shared`'s as a second instance (which leaves both to their owner).
 * Closing the owner drops its database and removes its bucket with every object the api put
 * there, and nothing else: MinIO is shared by every test app running and by `npm start`.
 * `overrides` change settings for one test; `sites` serves other builds of the site or console.
 */
export async function startTestApp(
  overrides: Record<string, string> = {},
  shared?: TestApp,
  sites: Partial<Pick<AppConfig, 'webDist' | 'adminDist'>> = {},
): Promise<TestApp> {
  const db = shared?.db ?? (await createTestDatabase(migrations));
  const bucket = shared?.bucket ?? `meshwork-test-${randomUUID()}`;
  // Made now, not on the api's first write, so reads before any write find no object (as in the
  // long-lived bucket of a real install) rather than no bucket.
  const storage = minioClient();
  if (!shared) await storage.makeBucket(bucket);
  const config = loadConfig({
    DATABASE_URL: db.url,
    KAFKA_BROKERS: required('KAFKA_BROKERS'),
    S3_ENDPOINT: required('S3_ENDPOINT'),
    S3_ACCESS_KEY: required('S3_ACCESS_KEY'),
    S3_SECRET_KEY: required('S3_SECRET_KEY'),
    // `{STRIPE_SECRET_KEY: ''}` runs the built-in simulated checkout instead of stripe-mock.
    ...(overrides.STRIPE_SECRET_KEY === ''
      ? {}
      : {
          STRIPE_SECRET_KEY: required('STRIPE_SECRET_KEY'),
          STRIPE_API_BASE: required('STRIPE_API_BASE'),
          STRIPE_WEBHOOK_SECRET: required('STRIPE_WEBHOOK_SECRET'),
        }),
    SMTP_URL: required('SMTP_URL'),
    LOG_LEVEL: 'warn', // kept, not printed: keepApiLog
    // No built-in desktop releases unless a test makes some: `npm start` builds them under the shared .data.
    DESKTOP_RELEASES_DIR: path.join(os.tmpdir(), `meshwork-no-releases-${randomUUID()}`),
    ...overrides,
    S3_BUCKET: bucket,
  });
  keepApiLog();
  const app = await createApp({ ...config, ...sites });
  return {
    app,
    db,
    bucket,
    async close() {
      await app.close();
      if (!shared) await Promise.all([db.drop(), removeBucket(storage, bucket)]);
    },
  };
}

const apiLog: string[] = [];

/**
 * The api's warnings and errors (a 5xx's cause among them) are kept, the last 30, and printed
 * only beside a failed test: tests that cause errors on purpose would fill the log otherwise.
 */
function keepApiLog(): void {
  const keptLines = {
    write(line: string) {
      apiLog.push(line.trimEnd());
      if (apiLog.length > 30) apiLog.shift();
    },
  };
  (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = keptLines;
  addFailureSection('the api’s last warnings and errors', async () => apiLog.join('\n'));
}

/** Waits until read model `projection` has applied every event in the log so far; fails the test if it does not. */
export async function caughtUp(subject: TestApp, projection: string): Promise<void> {
  const { rows } = await subject.db.pool.query<{ max: string }>('SELECT max(position) FROM es_events');
  const head = Number(rows[0]!.max);
  if (!(await waitForProjection(subject.db.pool, projection, head, READ_YOUR_WRITES_MS))) {
    throw new Error(`${projection} did not reach position ${head} within ${READ_YOUR_WRITES_MS} ms`);
  }
}

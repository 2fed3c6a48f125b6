import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../../../api/src/main';
import { migrations } from '../../../api/src/migrations';
import { type AppConfig, loadConfig } from '../../../api/src/platform/config/config';
import { createTestDatabase, type TestDatabase } from './test-database';
import { required } from '../infra';
import { minioClient, removeBucket } from './upload-kit';
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
    LOG_LEVEL: 'silent',
    // No built-in desktop releases unless a test makes some: `npm start` builds them under the shared .data.
    DESKTOP_RELEASES_DIR: path.join(os.tmpdir(), `meshwork-no-releases-${randomUUID()}`),
    ...overrides,
    S3_BUCKET: bucket,
  });
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

/** Waits until read model `projection` has applied every event in the log so far; fails the test if it does not. */
export async function caughtUp(subject: TestApp, projection: string): Promise<void> {
  const { rows } = await subject.db.pool.query<{ max: string }>('SELECT max(position) FROM es_events');
  const head = Number(rows[0]!.max);
  if (!(await waitForProjection(subject.db.pool, projection, head, READ_YOUR_WRITES_MS))) {
    throw new Error(`${projection} did not reach position ${head} within ${READ_YOUR_WRITES_MS} ms`);
  }
}

// Where things live and which ports they use. Pure data: no side effects, so
// tests can import it just to learn the URLs without starting anything.
//
// WHY fixed ports: the app, the tests and a developer's shell must all agree on
// where the servers are without a discovery step. They sit in unusual ranges
// (54329, 19092, ...) so they do not collide with a system PostgreSQL/Kafka,
// and every one can be moved with an environment variable.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository root (infra/lib/../..). */
export const repoRoot = path.resolve(here, '..', '..');

function int(name, fallback) {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number.parseInt(v, 10);
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`${name}=${v} is not a port number`);
  return n;
}

/** Everything every loopback server binds to. Never 0.0.0.0. */
export const host = '127.0.0.1';

export const ports = {
  postgres: int('MESHWORK_PG_PORT', 54329),
  kafka: int('MESHWORK_KAFKA_PORT', 19092),
  kafkaController: int('MESHWORK_KAFKA_CONTROLLER_PORT', 19093),
  minio: int('MESHWORK_MINIO_PORT', 19000),
  minioConsole: int('MESHWORK_MINIO_CONSOLE_PORT', 19001),
  stripe: int('MESHWORK_STRIPE_PORT', 12111),
  stripeHttps: int('MESHWORK_STRIPE_HTTPS_PORT', 12112),
  smtp: int('MESHWORK_SMTP_PORT', 11025),
  mailHttp: int('MESHWORK_MAIL_HTTP_PORT', 11080),
};

// Runtime state of THIS checkout (data, logs, pid files). Gitignored.
// MESHWORK_INFRA_DIR lets CI or a second checkout keep state elsewhere.
const infraDir = path.resolve(process.env.MESHWORK_INFRA_DIR || path.join(repoRoot, '.infra'));

// Downloads and builds shared by every checkout on this machine: Kafka jars,
// Go-built binaries. Outside the repo so `git clean` or a fresh clone does not
// pay the multi-minute MinIO build again.
const cacheDir = path.resolve(process.env.MESHWORK_CACHE || path.join(os.homedir(), '.cache', 'meshwork'));

export const paths = {
  infra: infraDir,
  logs: path.join(infraDir, 'logs'),
  envFile: path.join(infraDir, 'env.json'),
  cache: cacheDir,
  cacheBin: path.join(cacheDir, 'bin'),
  pidFile: (name) => path.join(infraDir, `${name}.pid`),
  lockDir: (name) => path.join(infraDir, `${name}.lock`),
  log: (name) => path.join(infraDir, 'logs', `${name}.log`),
  data: (name) => path.join(infraDir, name),
};

export const credentials = {
  pgUser: process.env.MESHWORK_PG_USER || 'meshwork',
  pgPassword: process.env.MESHWORK_PG_PASSWORD || 'meshwork',
  pgDatabase: process.env.MESHWORK_PG_DATABASE || 'meshwork',
  // MinIO refuses root passwords shorter than 8 characters.
  minioUser: process.env.MESHWORK_MINIO_USER || 'meshwork',
  minioPassword: process.env.MESHWORK_MINIO_PASSWORD || 'meshwork-secret',
  s3Region: process.env.MESHWORK_S3_REGION || 'us-east-1',
  // stripe-mock accepts any key of the right shape; it never checks it.
  stripeKey: process.env.MESHWORK_STRIPE_KEY || 'sk_test_meshwork',
};

/** The URL of the PostgreSQL that `up` would start (ignores DATABASE_URL). */
export function localDatabaseUrl(database = credentials.pgDatabase) {
  const { pgUser, pgPassword } = credentials;
  return `postgres://${encodeURIComponent(pgUser)}:${encodeURIComponent(pgPassword)}@${host}:${ports.postgres}/${database}`;
}

/**
 * The environment variables that point the app at the infra servers.
 * DATABASE_URL from the caller's environment wins: then infra does not
 * manage PostgreSQL at all (see postgres.mjs).
 */
export function env() {
  return {
    DATABASE_URL: process.env.DATABASE_URL || localDatabaseUrl(),
    KAFKA_BROKERS: `${host}:${ports.kafka}`,
    S3_ENDPOINT: `http://${host}:${ports.minio}`,
    S3_ACCESS_KEY: credentials.minioUser,
    S3_SECRET_KEY: credentials.minioPassword,
    S3_REGION: credentials.s3Region,
    STRIPE_SECRET_KEY: credentials.stripeKey,
    STRIPE_API_BASE: `http://${host}:${ports.stripe}`,
    // stripe-mock sends no webhooks: tests sign their own payloads with this secret.
    STRIPE_WEBHOOK_SECRET: 'whsec_meshwork_loopback',
    SMTP_URL: `smtp://${host}:${ports.smtp}`,
    MAIL_CAPTURE_URL: `http://${host}:${ports.mailHttp}`,
  };
}

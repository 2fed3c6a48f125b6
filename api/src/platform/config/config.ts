import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z.url().optional();
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

const KID = '[A-Za-z0-9_-]{1,64}';
const KEY_32 = '[A-Za-z0-9_-]{43}';

/** `<kid>:<base64url of the 32-byte Ed25519 private key>`: the key that signs entitlement documents. */
export const signingKeySpec = z
  .string()
  .regex(new RegExp(`^${KID}:${KEY_32}$`), 'must be <key id>:<base64url of a 32-byte Ed25519 private key>')
  .transform((v) => {
    const [kid, seed] = v.split(':') as [string, string];
    return { kid, seed: Buffer.from(seed, 'base64url') };
  });
export type SigningKeySpec = z.output<typeof signingKeySpec>;

/**
 * `<kid>:<base64url public key>[@<retired at, ISO 8601>],...`: the other keys to publish.
 * Without a date, a key is the next one (published before it signs); with one, a retired key,
 * published until every document it signed has expired (see networks/domain/signing-key-ring.ts).
 */
export const publishedKeysSpec = z
  .string()
  .regex(
    new RegExp(`^${KID}:${KEY_32}(@[^,]+)?(,${KID}:${KEY_32}(@[^,]+)?)*$`),
    'must be <key id>:<base64url public key>[@<retired at>],...',
  )
  .transform((v, context) =>
    v.split(',').map((entry) => {
      const [key, retired] = entry.split('@') as [string, string | undefined];
      const [kid, x] = key.split(':') as [string, string];
      const retiredAt = retired === undefined ? null : new Date(retired);
      if (retiredAt && Number.isNaN(retiredAt.getTime())) context.addIssue({ code: 'custom', message: `${kid}: ${retired} is not a date` });
      return { kid, x, retiredAt };
    }),
  )
  .refine((keys) => new Set(keys.map((k) => k.kid)).size === keys.length, 'key ids must differ');
export type PublishedKeySpec = z.output<typeof publishedKeysSpec>[number];

/**
 * Every setting Meshwork reads from the environment, parsed once at start-up. Each outside
 * system is optional: left unset, the embedded stand-in takes its place (see README).
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  /** The desktop app this installation built (releases.json and its files); unset: DATA_DIR/releases. */
  DESKTOP_RELEASES_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalUrl,
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65_535).default(54320),
  // About 25 of these are held for as long as the process runs when projections run in it (one
  // advisory-lock connection per log consumer, the LISTENs), so requests keep the rest.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(50),
  PROJECTIONS_IN_PROCESS: flag.default(true),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, 'must be host:port[,host:port...]')
    .optional(),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]+$/)
    .default('meshwork'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).default('meshwork'),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
  STRIPE_API_BASE: optionalUrl,
  /** Verifies Stripe webhook signatures (whsec_...); required with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Days a past-due subscription keeps its plan before falling back to free. */
  BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(7),
  /** How often the billing clock looks for periods that ended (renewals, expiries). */
  BILLING_CLOCK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** The seller printed on every invoice ("\n" in SELLER_ADDRESS starts a new line). */
  SELLER_NAME: z.string().trim().min(1).max(200).default('Meshwork Inc.'),
  SELLER_ADDRESS: z.string().max(500).default('1 Example Street\\nSan Francisco, CA 94105\\nUnited States'),
  SELLER_TAX_ID: z.string().max(50).default(''),
  /** Tax included in the amounts charged, in percent (0: no tax line is shown). */
  INVOICE_TAX_PERCENT: z.coerce.number().min(0).max(50).default(0),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Meshwork <no-reply@meshwork.local>'),
  /** Webhooks may call any URL (http, this host, private addresses): the default in embedded mode only. */
  WEBHOOKS_ANY_URL: flag.optional(),
  /** Where the site's Contact Sales messages are mailed. */
  SALES_EMAIL: z.email().default('sales@meshwork.local'),
  MAX_JSON_BODY: z
    .string()
    .regex(/^\d+(kb|mb)$/)
    .default('1mb'),
  /** Where links in emails point; defaults to this server. */
  PUBLIC_URL: optionalUrl,
  /** Signs access tokens. Unset: generated once and kept in DATA_DIR/secrets.json. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Wraps each user's personal-data key (base64 of 32 bytes). Unset: as JWT_SECRET. */
  DATA_ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64')
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Requests per minute per client address on login, register and password reset. */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Signs entitlement documents. Unset: generated once and kept in DATA_DIR/secrets.json. */
  ENTITLEMENT_SIGNING_KEY: signingKeySpec.optional(),
  /** Other public keys to publish: the next key, and retired ones with their retirement time. */
  ENTITLEMENT_PUBLISHED_KEYS: publishedKeysSpec.optional(),
});

export type Env = z.output<typeof schema>;

export interface AppConfig extends Env {
  dataDir: string;
  publicUrl: string;
  webDist: string;
  adminDist: string;
  /** The public pages as rendered with this installation's own data (`npm start` writes them). */
  sitePagesDir: string;
  /** Where the built-in desktop releases are: releases.json and the files it names. */
  desktopReleasesDir: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Meshwork cannot start; fix these settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment, naming every missing or bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = repoRoot()): AppConfig {
  // An empty value means unset, as in most .env files (`STRIPE_SECRET_KEY=`).
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const config = parsed.data;
  const problems: string[] = [];
  if (config.S3_ENDPOINT && !(config.S3_ACCESS_KEY && config.S3_SECRET_KEY)) {
    problems.push('S3_ACCESS_KEY and S3_SECRET_KEY: required when S3_ENDPOINT is set');
  }
  if (config.STRIPE_API_BASE && !config.STRIPE_SECRET_KEY) problems.push('STRIPE_SECRET_KEY: required when STRIPE_API_BASE is set');
  if (config.STRIPE_SECRET_KEY && !config.STRIPE_WEBHOOK_SECRET)
    problems.push('STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set');
  // Shared secrets mean several instances: each would sign with a key of its own.
  if (config.JWT_SECRET && !config.ENTITLEMENT_SIGNING_KEY) problems.push('ENTITLEMENT_SIGNING_KEY: required when JWT_SECRET is set');
  if (config.ENTITLEMENT_PUBLISHED_KEYS && !config.ENTITLEMENT_SIGNING_KEY)
    problems.push('ENTITLEMENT_SIGNING_KEY: required when ENTITLEMENT_PUBLISHED_KEYS is set');
  if (config.ENTITLEMENT_PUBLISHED_KEYS?.some((k) => k.kid === config.ENTITLEMENT_SIGNING_KEY?.kid))
    problems.push('ENTITLEMENT_PUBLISHED_KEYS: must not repeat the signing key’s id (it is published already)');
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...config,
    dataDir: path.resolve(root, config.DATA_DIR),
    sitePagesDir: path.join(path.resolve(root, config.DATA_DIR), 'site'),
    desktopReleasesDir: path.resolve(root, config.DESKTOP_RELEASES_DIR ?? path.join(config.DATA_DIR, 'releases')),
    publicUrl: (config.PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`).replace(/\/$/, ''),
    webDist: path.join(root, 'web', 'dist'),
    adminDist: path.join(root, 'admin', 'dist'),
  };
}

/** The repository root, whether running from source (api/src) or compiled (dist/api/src). */
export function repoRoot(): string {
  const here = __dirname.split(path.sep);
  const dist = here.lastIndexOf('dist');
  const api = here.lastIndexOf('api');
  return here.slice(0, dist !== -1 ? dist : api).join(path.sep) || path.sep;
}

export const APP_CONFIG = Symbol('AppConfig');

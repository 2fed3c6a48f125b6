import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type AppConfig, ConfigError, publishedKeysSpec, type PublishedKeySpec, signingKeySpec, type SigningKeySpec } from './config';
import { logger } from '../logging/logger';

/** The entitlement signing key and the other public keys published beside it (the next, the retired). */
export interface EntitlementKeys {
  signing: SigningKeySpec;
  published: PublishedKeySpec[];
}

export interface Secrets {
  /** HMAC key for access tokens. */
  jwtSecret: Buffer;
  /** Wraps per-user data keys and keys the blind indexes of unique values. */
  dataEncryptionKey: Buffer;
  /** Signs the devices' entitlement documents (Ed25519). */
  entitlementKeys: EntitlementKeys;
}

export const SECRETS = Symbol('Secrets');

/** DATA_DIR/secrets.json; the entitlement keys are written as their variables would be. */
interface StoredSecrets {
  jwtSecret: string;
  dataEncryptionKey: string;
  entitlementSigningKey?: string;
  entitlementPublishedKeys?: string;
}

/** A new Ed25519 signing key as ENTITLEMENT_SIGNING_KEY spells it, its id dated for the operator's sake. */
export function newSigningKey(now = new Date()): string {
  const seed = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }).d!;
  return `mw-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(3).toString('hex')}:${seed}`;
}

/**
 * Secrets from the environment, or, when unset (embedded mode), generated once and kept in
 * DATA_DIR/secrets.json, readable by the owner only; a secret added by a later version is
 * generated into the existing file. Several api instances must share them: set every
 * variable in full mode (config.ts refuses JWT_SECRET without ENTITLEMENT_SIGNING_KEY).
 */
export function loadSecrets(config: AppConfig): Secrets {
  const allInEnvironment = config.JWT_SECRET && config.DATA_ENCRYPTION_KEY && config.ENTITLEMENT_SIGNING_KEY;
  const stored = allInEnvironment ? undefined : storedSecrets(path.join(config.dataDir, 'secrets.json'), config.dataDir);
  return {
    jwtSecret: Buffer.from(config.JWT_SECRET ?? stored!.jwtSecret),
    dataEncryptionKey: Buffer.from(config.DATA_ENCRYPTION_KEY ?? stored!.dataEncryptionKey, 'base64'),
    entitlementKeys: config.ENTITLEMENT_SIGNING_KEY
      ? { signing: config.ENTITLEMENT_SIGNING_KEY, published: config.ENTITLEMENT_PUBLISHED_KEYS ?? [] }
      : storedEntitlementKeys(stored!),
  };
}

function storedSecrets(file: string, dataDir: string): StoredSecrets {
  const existing = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSecrets) : undefined;
  const stored: StoredSecrets = {
    jwtSecret: existing?.jwtSecret ?? randomBytes(48).toString('base64'),
    dataEncryptionKey: existing?.dataEncryptionKey ?? randomBytes(32).toString('base64'),
    ...existing,
    entitlementSigningKey: existing?.entitlementSigningKey ?? newSigningKey(),
  };
  if (!existing || !existing.entitlementSigningKey) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    logger.warn(
      { file },
      'generated secrets; set JWT_SECRET, DATA_ENCRYPTION_KEY and ENTITLEMENT_SIGNING_KEY when running more than one instance',
    );
  }
  return stored;
}

/** The stored keys, read by the variables' own parsers: a hand-edited file fails as loudly as a bad variable. */
function storedEntitlementKeys(stored: StoredSecrets): EntitlementKeys {
  const signing = signingKeySpec.safeParse(stored.entitlementSigningKey);
  const published = publishedKeysSpec.optional().safeParse(stored.entitlementPublishedKeys || undefined);
  const problems = [
    ...(signing.success ? [] : [`secrets.json entitlementSigningKey: ${signing.error.issues[0]?.message}`]),
    ...(published.success ? [] : [`secrets.json entitlementPublishedKeys: ${published.error.issues[0]?.message}`]),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return { signing: signing.data!, published: published.data ?? [] };
}

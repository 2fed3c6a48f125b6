import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stillPublished } from '@meshwork/contracts';
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

/** PKCS#8 DER for an Ed25519 private key is this fixed prefix and the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 private key a 32-byte seed spells. */
export const ed25519PrivateKey = (seed: Buffer): KeyObject =>
  createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });

/** The public half of a signing key, base64url, as ENTITLEMENT_PUBLISHED_KEYS lists it. */
export const publicKeyOf = (seed: Buffer): string => createPublicKey(ed25519PrivateKey(seed)).export({ format: 'jwk' }).x!;

const publishedEntry = ({ kid, x, retiredAt }: PublishedKeySpec) => `${kid}:${x}${retiredAt ? `@${retiredAt.toISOString()}` : ''}`;

/**
 * Embedded mode's key rotation (`npm run entitlement-key -- --rotate`): a new key signs from the
 * next start, the old one stays published as retired from `now` (hosts that meet the new key id
 * refetch the key set), and retired keys whose documents have all expired leave the file.
 * Answers the new key's id.
 */
export function rotateStoredEntitlementKey(dataDir: string, now = new Date()): string {
  const file = path.join(dataDir, 'secrets.json');
  if (!fs.existsSync(file)) throw new ConfigError([`${file} does not exist: start Meshwork once first`]);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSecrets;
  const { signing, published } = storedEntitlementKeys(stored);
  const retired = { kid: signing.kid, x: publicKeyOf(signing.seed), retiredAt: now };
  const next = newSigningKey(now);
  const rotated: StoredSecrets = {
    ...stored,
    entitlementSigningKey: next,
    entitlementPublishedKeys: [...published.filter((key) => stillPublished(key, now)), retired].map(publishedEntry).join(','),
  };
  fs.writeFileSync(file, JSON.stringify(rotated, null, 2), { mode: 0o600 });
  return next.split(':')[0]!;
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

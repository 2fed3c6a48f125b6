import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config';
import { logger } from '../logging/logger';

export interface Secrets {
  /** HMAC key for access tokens. */
  jwtSecret: Buffer;
  /** Wraps per-user data keys and keys the blind indexes of unique values. */
  dataEncryptionKey: Buffer;
}

export const SECRETS = Symbol('Secrets');

/**
 * Secrets from the environment, or, when unset (embedded mode), generated once and kept in
 * DATA_DIR/secrets.json, readable by the owner only. Several api instances must share them:
 * set both variables in full mode.
 */
export function loadSecrets(config: AppConfig): Secrets {
  if (config.JWT_SECRET && config.DATA_ENCRYPTION_KEY) {
    return { jwtSecret: Buffer.from(config.JWT_SECRET), dataEncryptionKey: Buffer.from(config.DATA_ENCRYPTION_KEY, 'base64') };
  }
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: { jwtSecret: string; dataEncryptionKey: string };
  if (fs.existsSync(file)) {
    stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  } else {
    stored = { jwtSecret: randomBytes(48).toString('base64'), dataEncryptionKey: randomBytes(32).toString('base64') };
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    logger.warn({ file }, 'generated JWT_SECRET and DATA_ENCRYPTION_KEY; set them in the environment when running more than one instance');
  }
  return {
    jwtSecret: Buffer.from(config.JWT_SECRET ?? stored.jwtSecret),
    dataEncryptionKey: Buffer.from(config.DATA_ENCRYPTION_KEY ?? stored.dataEncryptionKey, 'base64'),
  };
}

import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Endpoint secrets as the log and the read model hold them: AES-256-GCM under a key derived
 * from the server's data key, so neither a copy of the log nor of the database signs anything.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(dataEncryptionKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', dataEncryptionKey, Buffer.alloc(0), 'meshwork webhook secrets', 32));
  }

  /** A new secret (`whsec_` and 32 random bytes), sealed, with the hint its owner sees. */
  newSecret(): { secret: string; sealed: string; hint: string } {
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    return { secret, sealed: this.seal(secret), hint: `whsec_…${secret.slice(-4)}` };
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  open(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: one HMAC-SHA256 of "<t>.<body>" per active secret. */
export function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string): string {
  const signed = `${unixSeconds}.${body}`;
  return [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed).digest('hex')}`)].join(',');
}

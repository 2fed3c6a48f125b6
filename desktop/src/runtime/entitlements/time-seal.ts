import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { HostFiles } from '../account/host-files';

/**
 * Seals the host's trusted time to its document: an HMAC of the token and the time under a key
 * kept in a file of its own. Whoever owns the computer can read that key, so this does not stop a
 * determined owner; it makes an edit of the time in entitlements.json show, and together with the
 * document's signed `iat` (a floor no edit can lower) it keeps a clock set back from restoring a plan.
 */
export class TimeSeal {
  private key: Buffer | null = null;

  constructor(private readonly files: HostFiles) {}

  /** The seal of `at` for `token`, making the key the first time. */
  async seal(token: string, at: number): Promise<string> {
    return this.mac(await this.keyOrNew(), token, at);
  }

  /** Whether `seal` is this host's seal of `at` for `token` (false with no key: the file was replaced or removed). */
  async holds(token: string, at: number, seal: string): Promise<boolean> {
    if (!this.key) {
      const kept = (await this.files.sealKey.read())?.key;
      if (!kept) return false;
      this.key = Buffer.from(kept, 'base64url');
    }
    const expected = Buffer.from(this.mac(this.key, token, at));
    const given = Buffer.from(seal);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async keyOrNew(): Promise<Buffer> {
    if (this.key) return this.key;
    const kept = (await this.files.sealKey.read())?.key;
    const key = kept ?? randomBytes(32).toString('base64url');
    if (!kept) await this.files.sealKey.write({ key });
    return (this.key = Buffer.from(key, 'base64url'));
  }

  private mac(key: Buffer, token: string, at: number): string {
    return createHmac('sha256', key).update(`${at}\n${token}`).digest('base64url');
  }
}

import { createPrivateKey, X509Certificate } from 'node:crypto';
import { selfSigned } from './lan-identity';

describe('a device’s self-signed LAN certificate', () => {
  it('is one OpenSSL reads, every time (its serial is random: 600 of them)', () => {
    // A serial with a leading zero byte is not minimal DER; one certificate in 256 had one.
    for (let i = 0; i < 600; i++) {
      const { key, certificate } = selfSigned(`Device ${i}`);
      const parsed = new X509Certificate(certificate);
      expect(parsed.subject).toBe(`CN=Device ${i}`);
      expect(parsed.checkPrivateKey(createPrivateKey(key))).toBe(true);
      expect(parsed.verify(parsed.publicKey)).toBe(true);
    }
  });
});

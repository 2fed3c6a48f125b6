import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lanIdentity, selfSigned } from './lan-identity';

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

  it('is kept in the data directory, and made again when the one kept there cannot be read', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lan-identity-'));
    const first = await lanIdentity(dataDir, 'Studio');
    expect((await lanIdentity(dataDir, 'Studio')).fingerprint).toBe(first.fingerprint);

    const file = join(dataDir, 'lan-identity.json');
    const broken = first.certificate.replace('MII', 'MIA'); // an indefinite length: not DER
    await writeFile(file, JSON.stringify({ key: first.key, certificate: broken }));
    const remade = await lanIdentity(dataDir, 'Studio');
    expect(remade.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(remade.fingerprint).not.toBe(first.fingerprint);
    expect(JSON.parse(await readFile(file, 'utf8')).certificate).toBe(remade.certificate);
    await rm(dataDir, { recursive: true, force: true });
  });
});

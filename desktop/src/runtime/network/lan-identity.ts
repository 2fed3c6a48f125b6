/**
 * This device's identity on the LAN: an ECDSA P-256 key and a self-signed certificate for it,
 * made once and kept in the data directory. Devices of a network pin each other's certificate
 * (its SHA-256) when one joins, so TLS between them needs no certificate authority: a machine
 * that is not a member has no pinned certificate and gets nothing.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonFile } from '../platform/json-file';

const LanIdentityRecord = z.object({ key: z.string(), certificate: z.string() });

export interface LanIdentity {
  key: string;
  certificate: string;
  /** SHA-256 of the certificate's DER, hex: what peers pin. */
  fingerprint: string;
}

/** The SHA-256 of a certificate's DER, as hex (what `X509Certificate.fingerprint256` says, without colons). */
export const certificateFingerprint = (der: Buffer): string => createHash('sha256').update(der).digest('hex');

const fingerprintOf = (pem: string): string | null => {
  try {
    return certificateFingerprint(new X509Certificate(pem).raw);
  } catch {
    return null;
  }
};

export async function lanIdentity(dataDir: string, commonName: string): Promise<LanIdentity> {
  const file = new JsonFile(join(dataDir, 'lan-identity.json'), LanIdentityRecord);
  const stored = await file.read();
  // Made again when OpenSSL cannot read it (earlier builds wrote one in 256 so): the
  // network's members then pin the new one when they join again.
  const fingerprint = stored && fingerprintOf(stored.certificate);
  if (stored && fingerprint) return { ...stored, fingerprint };
  const record = selfSigned(commonName);
  await file.write(record);
  return { ...record, fingerprint: fingerprintOf(record.certificate)! };
}

// A minimal DER writer: just what one self-signed certificate needs (RFC 5280).
const der = (tag: number, content: Buffer): Buffer => {
  const n = content.length;
  const length = n < 0x80 ? Buffer.of(n) : n < 0x100 ? Buffer.of(0x81, n) : Buffer.of(0x82, n >> 8, n & 0xff);
  return Buffer.concat([Buffer.of(tag), length, content]);
};
const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const oid = (dotted: string): Buffer => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const value of rest) {
    const groups = [value & 0x7f];
    for (let v = value >> 7; v > 0; v >>= 7) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return der(0x06, Buffer.from(bytes));
};
const utcTime = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`));
const generalizedTime = (date: Date) => der(0x18, Buffer.from(`${date.toISOString().slice(0, 19).replace(/[-:T]/g, '')}Z`));
const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));

export function selfSigned(commonName: string): z.output<typeof LanIdentityRecord> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = sequence(der(0x31, sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(commonName.slice(0, 64) || 'Meshwork host')))));
  // A positive serial in minimal DER: the top bit cleared and the next one set (a leading zero
  // byte is "illegal padding" to OpenSSL, which refused one certificate in 256).
  const serial = randomBytes(16);
  serial[0] = 0x40 | (serial[0]! & 0x3f);
  const notBefore = new Date(Date.now() - 86_400_000);
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.of(2))), // version 3
    der(0x02, serial),
    ECDSA_WITH_SHA256,
    name,
    sequence(utcTime(notBefore), generalizedTime(new Date('2099-12-31T23:59:59Z'))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, der(0x03, Buffer.concat([Buffer.of(0), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${certificate.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, certificate: pem };
}

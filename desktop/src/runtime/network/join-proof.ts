/**
 * Proof that a device knows its network's join code, bound to both TLS certificates: the
 * joining device sends HMAC(code, "join" + both fingerprints), the host answers with
 * HMAC(code, "admit" + both). A machine in the middle presents other certificates, so a proof
 * it relays does not match, and neither side pins a certificate the other did not present.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { normalizeJoinCode } from '@meshwork/contracts';

export function joinProof(
  step: 'join' | 'admit',
  code: string,
  networkId: string,
  hostCertificate: string,
  memberCertificate: string,
): string {
  const key = normalizeJoinCode(code) ?? code;
  return createHmac('sha256', key).update(`meshwork-lan-${step}\n${networkId}\n${hostCertificate}\n${memberCertificate}`).digest('hex');
}

export function proofMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

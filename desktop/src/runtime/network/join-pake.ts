/**
 * Proof that a device and its host know the same join code, without giving anyone on the path
 * something to guess the code against offline: CPace (draft-irtf-cfrg-cpace) over ristretto255.
 *
 * Both sides hash the code, with both TLS certificates' fingerprints and the joining device's
 * session id, to a point G of the group, pick a secret scalar y, and send y·G. Each multiplies
 * the other's share by its own scalar: the same point only when both used the same code and the
 * same certificates, and the shares reveal nothing about the code (y·G is a uniform point for
 * any G). Each side then proves it holds the session key (HMAC tags, the host's first): a
 * stranger who guesses learns whether one guess was right per live run, and the host allows few
 * runs per code. A machine in the middle holds other certificates than either side sees, so its
 * two sessions derive different points and neither tag matches.
 */
import { timingSafeEqual } from 'node:crypto';
import { ristretto255, ristretto255_hasher } from '@noble/curves/ed25519';
import { hmac } from '@noble/hashes/hmac';
import { sha512 } from '@noble/hashes/sha2';
import { randomBytes } from '@noble/hashes/utils';
import { type LanNetworkInfo, normalizeJoinCode } from '@meshwork/contracts';

type Point = InstanceType<typeof ristretto255.Point>;

const encoder = new TextEncoder();
/** Length-prefixed concatenation (so no two different inputs hash alike). */
function lv(...parts: (string | Uint8Array)[]): Uint8Array {
  const bytes = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const out = new Uint8Array(bytes.reduce((sum, b) => sum + 4 + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    new DataView(out.buffer).setUint32(at, b.length);
    out.set(b, at + 4);
    at += 4 + b.length;
  }
  return out;
}
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** What a run is bound to: the TLS certificates both sides see, and the joining device's fresh session id. */
export interface JoinContext {
  sid: string;
  hostCertificate: string;
  memberCertificate: string;
}

export const newSessionId = (): string => hex(randomBytes(16));

/** What the host's proof of the code covers: the network the device is about to join. */
export const networkClaims = (network: LanNetworkInfo): string[] => [network.id, network.name, network.model];

function generator(code: string, context: JoinContext): Point {
  const secret = normalizeJoinCode(code) ?? code;
  const input = lv('meshwork-lan-join CPace ristretto255', secret, context.hostCertificate, context.memberCertificate, context.sid);
  return ristretto255_hasher.hashToCurve(input, { DST: 'meshwork-lan-join-v1_XMD:SHA-512_R255MAP_RO_' }) as unknown as Point;
}

/** One side of one run: its share to send, and the session key once the other's share comes. */
export class JoinExchange {
  readonly share: string;
  private readonly scalar: bigint;

  constructor(
    private readonly role: 'host' | 'member',
    code: string,
    readonly context: JoinContext,
  ) {
    const order = ristretto255.Point.Fn.ORDER;
    // 64 random bytes reduced: uniform to within 2^-250; never zero.
    this.scalar = (BigInt(`0x${hex(randomBytes(64))}`) % (order - 1n)) + 1n;
    this.share = hex(generator(code, context).multiply(this.scalar).toBytes());
  }

  /** The session key from the other side's share, or null when that is not a point of the group (or is the identity). */
  key(theirs: string): JoinKey | null {
    let point: Point;
    try {
      point = ristretto255.Point.fromHex(theirs);
    } catch {
      return null;
    }
    if (point.is0()) return null;
    const shared = point.multiply(this.scalar);
    const [member, host] = this.role === 'member' ? [this.share, theirs] : [theirs, this.share];
    const { sid, hostCertificate, memberCertificate } = this.context;
    return new JoinKey(sha512(lv('meshwork-lan-join ISK', hostCertificate, memberCertificate, sid, shared.toBytes(), member, host)));
  }
}

/** The session key of a run: each side's confirmation tag, over what that side claims. */
export class JoinKey {
  constructor(private readonly secret: Uint8Array) {}

  tag(step: 'host' | 'member', ...claims: string[]): string {
    return hex(hmac(sha512, this.secret, lv(`meshwork-lan-join ${step}`, ...claims)).subarray(0, 32));
  }

  matches(step: 'host' | 'member', given: string, ...claims: string[]): boolean {
    const expected = Buffer.from(this.tag(step, ...claims), 'hex');
    const actual = Buffer.from(given, 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}

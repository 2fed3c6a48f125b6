import { type KeyObject, sign } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ENTITLEMENT_TYPE,
  EntitlementDocument,
  type EntitlementHeader,
  type EntitlementKeySet,
  KEY_SET_TYPE,
  KeySetPayload,
} from '@meshwork/contracts';
import { ed25519PrivateKey, publicKeyOf, SECRETS, type Secrets } from '../../platform/config/secrets';
import { publishedKeys, type SigningKeyRing } from '../domain/signing-key-ring';

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Signs entitlement documents with the active Ed25519 key (JWS compact, EdDSA) and answers
 * the key set to publish. The keys come from the secrets: the environment in full mode, or
 * DATA_DIR/secrets.json in embedded mode.
 */
@Injectable()
export class EntitlementSigner {
  private readonly privateKey: KeyObject;
  private readonly ring: SigningKeyRing;

  constructor(@Inject(SECRETS) secrets: Pick<Secrets, 'entitlementKeys'>) {
    const { signing, published } = secrets.entitlementKeys;
    this.privateKey = ed25519PrivateKey(signing.seed);
    this.ring = { active: { kid: signing.kid, x: publicKeyOf(signing.seed) }, others: published };
  }

  /** The id of the key documents are signed with now. */
  get kid(): string {
    return this.ring.active.kid;
  }

  /** The compact token; the document is checked against the contract first, so no host is sent one it would refuse. */
  sign(document: EntitlementDocument): string {
    return this.compact(ENTITLEMENT_TYPE, EntitlementDocument.parse(document));
  }

  /** The key set at `now`, signed by the active key (GET /devices/keys/signed/): how pinned hosts learn a rotation. */
  signedKeySet(issuer: string, now: Date): string {
    const payload = KeySetPayload.parse({ iss: issuer, iat: Math.floor(now.getTime() / 1000), keys: this.keySet(now).keys });
    return this.compact(KEY_SET_TYPE, payload);
  }

  private compact(typ: EntitlementHeader['typ'] | typeof KEY_SET_TYPE, payload: unknown): string {
    const input = `${segment({ alg: 'EdDSA', kid: this.ring.active.kid, typ })}.${segment(payload)}`;
    return `${input}.${sign(null, Buffer.from(input), this.privateKey).toString('base64url')}`;
  }

  /** The public keys a host should trust at `now` (GET /devices/keys/). */
  keySet(now: Date): EntitlementKeySet {
    return publishedKeys(this.ring, now);
  }
}

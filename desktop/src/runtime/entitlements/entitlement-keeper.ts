import {
  type EntitlementDocument,
  EntitlementKeySet,
  type HostEntitlements,
  SignedEntitlements,
  SignedKeySet,
  verifyEntitlementToken,
  verifyKeySetToken,
} from '@meshwork/contracts';
import type { ApiClient } from '../api/api-client';
import type { HostFiles, TrustRecord } from '../account/host-files';

/** A document the host refused: why, in words for the log and the UI. */
export class EntitlementRefused extends Error {}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * The signed entitlement document this host obeys, online or offline. Every document is
 * verified against the keys pinned at sign-in before it is kept (on disk, so a restart without
 * the api still knows the plan); a document signed by an unknown key is accepted only after a
 * key set signed by a pinned key introduces that key. An older document never replaces a newer.
 */
export class EntitlementKeeper {
  private trust: TrustRecord | null = null;
  private current: { token: string; document: EntitlementDocument } | null = null;

  constructor(
    private readonly files: HostFiles,
    private readonly deviceId: string,
  ) {}

  /** The kept document, if it still verifies against the kept keys (it may have expired: the UI says so). */
  async load(): Promise<void> {
    this.trust = await this.files.trust.read();
    const kept = await this.files.entitlements.read();
    if (!this.trust || !kept) return;
    // Signature, issuer and device only: judged at the epoch with no limit on skew, an expired
    // document still loads, so the UI can say it has expired rather than that there is none.
    const verdict = await verifyEntitlementToken(kept.token, this.trust.keys, new Date(0), {
      issuer: this.trust.issuer,
      deviceId: this.deviceId,
      skewSeconds: Number.MAX_SAFE_INTEGER,
    });
    if (verdict.status !== 'rejected') this.current = { token: kept.token, document: verdict.document };
  }

  get document(): EntitlementDocument | null {
    return this.current?.document ?? null;
  }

  get token(): string | null {
    return this.current?.token ?? null;
  }

  /**
   * Another device's document (a device joining this one's network): signed by a key this host
   * pinned, from the same api, and not past its grace. Answers the document or why it is refused.
   */
  async verifyPeer(token: string, now = new Date()): Promise<EntitlementDocument | string> {
    if (!this.trust) return 'This host has no pinned keys: sign in again.';
    const verdict = await verifyEntitlementToken(token, this.trust.keys, now, { issuer: this.trust.issuer });
    return verdict.status === 'rejected' ? verdict.message : verdict.document;
  }

  /**
   * First sign-in: the api's published keys are pinned (trust on first use, over the
   * connection the person chose to sign in through) and its document is checked against them.
   */
  async pinAndFetch(api: ApiClient): Promise<EntitlementDocument> {
    const keys = await api.request('/devices/keys/', { schema: EntitlementKeySet, auth: false });
    const { token } = await api.request('/devices/entitlements/', { schema: SignedEntitlements });
    const verdict = await verifyEntitlementToken(token, keys, new Date(), { deviceId: this.deviceId });
    if (verdict.status === 'rejected') throw new EntitlementRefused(`The api's entitlement document was refused: ${verdict.message}`);
    this.trust = { issuer: verdict.document.iss, key_set_iat: 0, keys };
    await this.files.trust.write(this.trust);
    await this.keep(token, verdict.document);
    return verdict.document;
  }

  /** GET /devices/entitlements/: the current document, for when the stream has not sent one for a while. */
  async fetch(api: ApiClient): Promise<EntitlementDocument> {
    const { token } = await api.request('/devices/entitlements/', { schema: SignedEntitlements });
    return this.accept(token, api);
  }

  /** A document from the api (the stream or a fetch): verified, then kept if it is not older than the one held. */
  async accept(token: unknown, api: ApiClient): Promise<EntitlementDocument> {
    const trust = this.trust;
    if (!trust) throw new EntitlementRefused('This host has no pinned keys: sign in again');
    const options = { issuer: trust.issuer, deviceId: this.deviceId, minSeq: this.current?.document.seq };
    let verdict = await verifyEntitlementToken(token, trust.keys, new Date(), options);
    if (verdict.status === 'rejected' && verdict.reason === 'unknown_key' && (await this.followRotation(api))) {
      verdict = await verifyEntitlementToken(token, this.trust!.keys, new Date(), options);
    }
    if (verdict.status === 'rejected') throw new EntitlementRefused(`An entitlement document was refused: ${verdict.message}`);
    await this.keep(token as string, verdict.document);
    return verdict.document;
  }

  /** The signed key set, if a pinned key signed it: the new keys replace the pinned ones. */
  private async followRotation(api: ApiClient): Promise<boolean> {
    const trust = this.trust!;
    const { token } = await api.request('/devices/keys/signed/', { schema: SignedKeySet, auth: false });
    const verdict = await verifyKeySetToken(token, trust.keys, new Date(), { issuer: trust.issuer, minIat: trust.key_set_iat });
    if (verdict.status === 'rejected') return false;
    this.trust = { issuer: trust.issuer, key_set_iat: verdict.keySet.iat, keys: { keys: verdict.keySet.keys } };
    await this.files.trust.write(this.trust);
    return true;
  }

  private async keep(token: string, document: EntitlementDocument): Promise<void> {
    await this.files.entitlements.write({ token });
    this.current = { token, document };
  }

  /** The document as the UI shows it at `now`: valid, in its offline grace, or expired. */
  view(now: Date): HostEntitlements | null {
    const document = this.current?.document;
    if (!document) return null;
    const at = Math.floor(now.getTime() / 1000);
    return {
      status: at <= document.exp ? 'valid' : at <= document.grace_until ? 'in-grace' : 'expired',
      plan: document.plan,
      models: document.models,
      networks: document.networks,
      issued_at: iso(document.iat),
      expires_at: iso(document.exp),
      grace_until: iso(document.grace_until),
      seconds_left: Math.max(0, document.grace_until - at),
      seq: document.seq,
    };
  }
}

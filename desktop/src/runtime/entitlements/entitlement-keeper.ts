import {
  ENTITLEMENT_CLOCK_SKEW_SECONDS,
  type EntitlementDocument,
  EntitlementKeySet,
  type EntitlementVerdict,
  type HostEntitlements,
  type HostTrust,
  type HostTrustProblem,
  SignedEntitlements,
  SignedKeySet,
  verifyEntitlementToken,
  verifyKeySetToken,
} from '@meshwork/contracts';
import type { ApiClient } from '../api/api-client';
import { type HostFiles, MAX_KEY_SETS, type TrustRecord } from '../account/host-files';
import { TimeSeal } from './time-seal';

/** A document the host refused: why, in words for the log and the UI. */
export class EntitlementRefused extends Error {}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** How far the clock may step back (a time-server correction) before the host stops trusting it. */
const CLOCK_SLACK_SECONDS = ENTITLEMENT_CLOCK_SKEW_SECONDS;
/** The trusted time is saved when it has moved on this much, so a restart remembers it. */
const SAVE_TIME_EVERY_SECONDS = 60;

/**
 * The signed entitlement document this host obeys, online or offline, and the keys it trusts.
 * A release carries the platform's root keys: the keys are those, or those a chain of signed
 * key sets from them introduced, worked out again at every start, so replacing trust.json adds
 * no key. A copy run from the sources has no release: it pins the api's published keys at first
 * sign-in, as before, and says so. Every document is verified before it is kept (on disk, so a
 * restart without the api still knows the plan); an older document never replaces a newer; a
 * document from the api that does not verify stops the serving, with why. The latest time the
 * host trusted (the newest `iat`, the latest the clock read) is kept with the document, sealed:
 * a clock set back behind it expires the plan until a document from the api vouches for the time.
 */
export class EntitlementKeeper {
  private issuer: string | undefined;
  private keys: EntitlementKeySet | null = null;
  private keySetIat = 0;
  /** The signed key sets followed from the release's root, oldest first. */
  private keySets: string[] = [];
  private current: { token: string; document: EntitlementDocument } | null = null;
  /** Why the api's latest document was refused; null while its documents verify. */
  private refused: HostTrustProblem | null = null;
  /** The latest time trusted (seconds) and the one saved with the document. */
  private mark = 0;
  private savedMark = 0;
  private saving: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly seal: TimeSeal;

  constructor(
    private readonly files: HostFiles,
    private readonly deviceId: string,
    /** The release's keys, or null for a copy run from the sources. */
    private readonly root: EntitlementKeySet | null,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.keys = root;
    this.seal = new TimeSeal(files);
  }

  /** The kept document, if it still verifies against the trusted keys (it may have expired: the UI says so). */
  async load(): Promise<void> {
    const trust = await this.files.trust.read();
    if (trust) await this.restoreTrust(trust);
    const kept = await this.files.entitlements.read();
    if (!this.keys || !kept) return;
    // Signature, issuer and device only: judged at the epoch with no limit on skew, an expired
    // document still loads, so the UI can say it has expired rather than that there is none.
    const verdict = await verifyEntitlementToken(kept.token, this.keys, new Date(0), {
      issuer: this.issuer,
      deviceId: this.deviceId,
      skewSeconds: Number.MAX_SAFE_INTEGER,
    });
    if (verdict.status === 'rejected') return;
    this.current = { token: kept.token, document: verdict.document };
    const time = kept.trusted_time;
    // No time kept (a file from before): the document's own iat. A seal that does not hold: the
    // time was edited, so it is unknown, and the plan waits for the api.
    const sealed = time === undefined ? 0 : (await this.seal.holds(kept.token, time.at, time.seal)) ? time.at : Number.MAX_SAFE_INTEGER;
    this.mark = this.savedMark = Math.max(verdict.document.iat, sealed);
  }

  get document(): EntitlementDocument | null {
    return this.current?.document ?? null;
  }

  get token(): string | null {
    return this.current?.token ?? null;
  }

  /** Where the trusted keys come from, and why the plan cannot be trusted now (null while it can). */
  trust(now: Date): HostTrust {
    return {
      source: this.root ? 'release' : 'first-sign-in',
      problem: this.refused ?? (this.clockWentBack(now) ? { code: 'clock_went_back' } : null),
    };
  }

  /** Whether the clock reads earlier than the latest time trusted, beyond a correction's slack. */
  clockWentBack(now: Date): boolean {
    return this.current !== null && seconds(now) < this.mark - CLOCK_SLACK_SECONDS;
  }

  /**
   * Another device's document (a device joining this one's network): signed by a key this host
   * trusts, from the same api, and not past its grace. Answers the document or why it is refused.
   */
  async verifyPeer(token: string, now = new Date()): Promise<EntitlementDocument | string> {
    if (!this.keys) return 'This host has no trusted keys: sign in again.';
    const verdict = await verifyEntitlementToken(token, this.keys, now, { issuer: this.issuer });
    return verdict.status === 'rejected' ? verdict.message : verdict.document;
  }

  /**
   * First sign-in: the release's keys, or (with no release) the api's published keys pinned on
   * first use over the connection the person chose to sign in through; then the api's document.
   */
  async pinAndFetch(api: ApiClient): Promise<EntitlementDocument> {
    this.issuer = undefined;
    this.keySetIat = 0;
    this.keySets = [];
    this.keys = this.root ?? (await api.request('/devices/keys/', { schema: EntitlementKeySet, auth: false }));
    const { token } = await api.request('/devices/entitlements/', { schema: SignedEntitlements });
    const document = await this.accept(token, api);
    await this.saveTrust();
    return document;
  }

  /** GET /devices/entitlements/: the current document, for when the stream has not sent one for a while. */
  async fetch(api: ApiClient): Promise<EntitlementDocument> {
    const { token } = await api.request('/devices/entitlements/', { schema: SignedEntitlements });
    return this.accept(token, api);
  }

  /** A document from the api (the stream or a fetch): verified, then kept if it is not older than the one held. */
  async accept(token: unknown, api: ApiClient): Promise<EntitlementDocument> {
    if (!this.keys) throw new EntitlementRefused('This host has no trusted keys: sign in again');
    const now = this.clock();
    const verify = () =>
      verifyEntitlementToken(token, this.keys, now, { issuer: this.issuer, deviceId: this.deviceId, minSeq: this.current?.document.seq });
    let verdict = await verify();
    if (verdict.status === 'rejected' && verdict.reason === 'unknown_key' && (await this.followRotation(api))) verdict = await verify();
    if (verdict.status === 'rejected') {
      // A replay of an older document is only ignored; any other refusal means the api's
      // current plan cannot be verified, and a plan held from elsewhere must not stand in for it.
      if (verdict.reason !== 'stale') this.refused = this.refusal(verdict);
      throw new EntitlementRefused(`An entitlement document was refused: ${verdict.message}`);
    }
    this.refused = null;
    if (this.issuer === undefined) this.issuer = verdict.document.iss;
    await this.keep(token as string, verdict.document, now);
    return verdict.document;
  }

  /** The latest time the clock read: the trusted time moves on with it (saved every minute or so). */
  async observe(now: Date): Promise<void> {
    const at = seconds(now);
    if (!this.current || at <= this.mark) return;
    this.mark = at;
    if (at - this.savedMark >= SAVE_TIME_EVERY_SECONDS) await this.saveDocument();
  }

  /** Waits for the writes under way and makes no more (the files are about to be removed or the host stops). */
  async settle(): Promise<void> {
    this.closed = true;
    await this.saving;
  }

  /** The document as the UI shows it at `now`: valid, in its offline grace, or expired (a clock set back expires it too). */
  view(now: Date): HostEntitlements | null {
    const document = this.current?.document;
    if (!document) return null;
    const at = seconds(now);
    const back = this.clockWentBack(now);
    return {
      status: back ? 'expired' : at <= document.exp ? 'valid' : at <= document.grace_until ? 'in-grace' : 'expired',
      plan: document.plan,
      models: document.models,
      networks: document.networks,
      issued_at: iso(document.iat),
      expires_at: iso(document.exp),
      grace_until: iso(document.grace_until),
      seconds_left: back ? 0 : Math.max(0, document.grace_until - at),
      seq: document.seq,
    };
  }

  /** The trusted keys from the file: with a release, from its root through the key sets that verify; else those pinned. */
  private async restoreTrust(trust: TrustRecord): Promise<void> {
    this.issuer = trust.issuer;
    if (!this.root) {
      this.keys = trust.keys;
      this.keySetIat = trust.key_set_iat;
      return;
    }
    this.keys = this.root;
    for (const token of trust.key_sets) if (!(await this.stepTo(token))) break; // an edited set: the rest hung on it
  }

  /** The signed key set, if a trusted key signed it: the new keys replace the trusted ones. */
  private async followRotation(api: ApiClient): Promise<boolean> {
    if (this.root && this.keySets.length >= MAX_KEY_SETS) return false;
    const { token } = await api.request('/devices/keys/signed/', { schema: SignedKeySet, auth: false });
    if (!(await this.stepTo(token))) return false;
    await this.saveTrust();
    return true;
  }

  private async stepTo(token: string): Promise<boolean> {
    const verdict = await verifyKeySetToken(token, this.keys, this.clock(), { issuer: this.issuer, minIat: this.keySetIat });
    if (verdict.status === 'rejected') return false;
    this.issuer ??= verdict.keySet.iss;
    this.keys = { keys: verdict.keySet.keys };
    this.keySetIat = verdict.keySet.iat;
    if (this.root) this.keySets = [...this.keySets, token];
    return true;
  }

  private async saveTrust(): Promise<void> {
    if (this.issuer === undefined || !this.keys) return;
    await this.files.trust.write({ issuer: this.issuer, key_set_iat: this.keySetIat, keys: this.keys, key_sets: this.keySets });
  }

  /** A verified document from the api: kept, and the time it vouches for becomes the trusted time. */
  private async keep(token: string, document: EntitlementDocument, now: Date): Promise<void> {
    this.current = { token, document };
    this.mark = Math.max(document.iat, seconds(now));
    await this.saveDocument();
  }

  /** Writes the document with the trusted time, one write after another, each with the latest of both. */
  private saveDocument(): Promise<void> {
    const write = async () => {
      const current = this.current;
      if (this.closed || !current) return;
      const at = this.mark;
      await this.files.entitlements.write({ token: current.token, trusted_time: { at, seal: await this.seal.seal(current.token, at) } });
      this.savedMark = at;
    };
    const done = this.saving.then(write);
    this.saving = done.catch(() => undefined);
    return done;
  }

  private refusal(verdict: Extract<EntitlementVerdict, { status: 'rejected' }>): HostTrustProblem {
    const reinstall = this.root !== null && (verdict.reason === 'unknown_key' || verdict.reason === 'bad_signature');
    const advice = verdict.reason === 'not_yet_valid' ? 'check_clock' : reinstall ? 'reinstall' : null;
    return { code: 'plan_unverifiable', detail: verdict.message, advice };
  }
}

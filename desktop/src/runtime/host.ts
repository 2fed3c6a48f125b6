import { EventEmitter } from 'node:events';
import { platform } from 'node:os';
import {
  type EntitlementDocument,
  type EntitlementKeySet,
  type HostAccount,
  type HostConnection,
  type HostPasswordSignIn,
  type HostRefusalReason,
  type HostSignedOutMessage,
  type HostState,
  type HostTrustProblem,
  MessageAnswer,
} from '@meshwork/contracts';
import { ApiClient, type DeviceTokens } from './api/api-client';
import { type DeviceDescription, pollForTokens, requestDeviceCode, signInWithPassword } from './account/device-sign-in';
import { type AccountRecord, hostFiles } from './account/host-files';
import { EntitlementKeeper } from './entitlements/entitlement-keeper';
import { EntitlementStream } from './entitlements/entitlement-stream';
import { ModelStore } from './models/model-store';
import { refusalWords } from './english';

export interface HostConfig {
  dataDir: string;
  /** The api's origin, e.g. https://meshwork.example (the host adds /api/v1). */
  api: string;
  deviceName: string;
  fingerprint: string;
  version: string;
  log?: (message: string) => void;
  /** What time it is for the document's expiry and grace (tests move it on, as the api's tests move its device clock). */
  clock?: () => Date;
  /**
   * The platform's entitlement keys the release carries (release.json): the host's root of
   * trust. Absent (a copy run from the sources), the api's keys are pinned at first sign-in.
   */
  rootKeys?: EntitlementKeySet | null;
}

/**
 * A document held longer than this is fetched again (it lives 7 days, and the stream sends one
 * only when something changes): on reconnect, and hourly while online.
 */
const REFETCH_AFTER_SECONDS = 12 * 3600;
const REFETCH_CHECK_MS = 3600_000;

interface Session {
  account: AccountRecord;
  api: ApiClient;
  keeper: EntitlementKeeper;
  stream: EntitlementStream;
}

/**
 * What the person asked for cannot be done now: `reason` says why, as a code the window words;
 * the message is its English, for programs.
 */
export class HostRefusal extends Error {
  constructor(readonly reason: HostRefusalReason) {
    super(refusalWords(reason));
  }
}

type HostEvents = { state: [HostState]; entitlements: [EntitlementDocument | null] };

/** The network part of the state, which the LAN network supplies once it is running. */
type NetworkView = () => Pick<HostState, 'network' | 'discovered' | 'left_network'>;

/**
 * The desktop host's account and entitlements: signs the device in (device code, or email and
 * password), keeps the signed document on disk, holds the live stream and says at every moment
 * whether models may be served. The UI, the model store and the network follow its events.
 */
export class DesktopRuntime extends EventEmitter<HostEvents> {
  private readonly files;
  private session: Session | null = null;
  /** The session being signed out (its stream stopped, its files removed), so it is signed out once. */
  private signingOut: Session | null = null;
  private signingIn: { account: HostAccount; abort: AbortController } | null = null;
  private connection: HostConnection = 'offline';
  private signedOutMessage: HostSignedOutMessage | null = null;
  private boundary: NodeJS.Timeout | null = null;
  private readonly refetch = setInterval(() => {
    this.observeClock();
    void this.refetchIfOld();
  }, REFETCH_CHECK_MS).unref();
  /** What the stream last said of the connection; the state may wait for a document before it says online. */
  private streamConnection: HostConnection = 'offline';
  private networkView: NetworkView = () => ({ network: null, discovered: [], left_network: null });

  readonly models: ModelStore;

  private constructor(private readonly config: HostConfig) {
    super();
    this.files = hostFiles(config.dataDir);
    this.models = new ModelStore(config.dataDir);
    this.models.on('change', () => this.emitState());
    // The window names each model of the plan as the catalog does, downloaded or not.
    this.on('entitlements', (document) => {
      if (document && this.session) this.models.describe(this.session.api, document);
    });
  }

  /** Opens the host on its data directory; a device signed in before resumes at once, online or not. */
  static async open(config: HostConfig): Promise<DesktopRuntime> {
    const host = new DesktopRuntime(config);
    await host.models.load();
    const account = await host.files.account.read();
    if (account) await host.resume(account, false);
    return host;
  }

  private now(): Date {
    return this.config.clock?.() ?? new Date();
  }

  private log(message: string): void {
    (this.config.log ?? console.log)(message);
  }

  private get device(): DeviceDescription {
    const { deviceName: name, version: appVersion, fingerprint } = this.config;
    return { name, platform: platform(), appVersion, fingerprint };
  }

  get entitlements(): EntitlementDocument | null {
    return this.session?.keeper.document ?? null;
  }

  /** The signed-in device's id and its api client, or null while signed out. */
  get signedInDevice(): { deviceId: string; deviceName: string; api: ApiClient } | null {
    const session = this.session;
    return session ? { deviceId: session.account.device_id, deviceName: session.account.device_name, api: session.api } : null;
  }

  /** This device's signed document as it came from the api (another device of the network checks it). */
  get entitlementToken(): string | null {
    return this.session?.keeper.token ?? null;
  }

  /** Another device's signed document, checked against the keys this host pinned: the document, or why it is refused. */
  async verifyPeerEntitlements(token: string): Promise<EntitlementDocument | string> {
    return this.session ? this.session.keeper.verifyPeer(token) : 'This device is signed out.';
  }

  /** Asks the api for the current document now (after this device changed its networks). */
  async refreshEntitlements(): Promise<void> {
    const session = this.session;
    if (!session) return;
    const before = session.keeper.document?.seq;
    const document = await session.keeper.fetch(session.api);
    if (document.seq !== before) this.emit('entitlements', document);
    this.emitState();
  }

  /** The LAN network supplies its part of the state, and says when it changed. */
  attachNetwork(view: NetworkView): () => void {
    this.networkView = view;
    return () => this.emitState();
  }

  /** Whether models may be served now, and if not, why. */
  serving(now = this.now()): HostState['serving'] {
    return servingAt(this.session !== null, this.session?.keeper.view(now) ?? null, this.trust(now).problem);
  }

  private trust(now: Date): HostState['trust'] {
    return this.session?.keeper.trust(now) ?? { source: this.config.rootKeys ? 'release' : 'first-sign-in', problem: null };
  }

  state(now = this.now()): HostState {
    const entitlements = this.session?.keeper.view(now) ?? null;
    const trust = this.trust(now);
    const account: HostAccount = this.session
      ? {
          status: 'signed-in',
          device_id: this.session.account.device_id,
          device_name: this.session.account.device_name,
          api: this.config.api,
        }
      : (this.signingIn?.account ?? { status: 'signed-out', message: this.signedOutMessage });
    return {
      version: this.config.version,
      account,
      connection: this.session ? this.connection : 'offline',
      entitlements,
      trust,
      serving: servingAt(this.session !== null, entitlements, trust.problem),
      models: this.models.view(this.entitlements),
      ...this.networkView(),
    };
  }

  /** Starts the device code flow: the UI shows the code and opens the site's /activate; polling goes on here. */
  async startDeviceSignIn(): Promise<HostAccount> {
    if (this.session) return this.state().account;
    this.signingIn?.abort.abort();
    const api = this.anonymousApi();
    const code = await requestDeviceCode(api, this.device);
    const abort = new AbortController();
    const account: HostAccount = {
      status: 'signing-in',
      user_code: code.user_code,
      verification_uri: code.verification_uri,
      verification_uri_complete: code.verification_uri_complete,
      expires_at: new Date(Date.now() + code.expires_in * 1000).toISOString(),
    };
    this.signingIn = { account, abort };
    this.emitState();
    const expiry = AbortSignal.timeout(code.expires_in * 1000);
    pollForTokens(api, code, AbortSignal.any([abort.signal, expiry]))
      .then((tokens) => this.signedIn(tokens))
      .catch((error: Error) => {
        if (this.signingIn?.abort !== abort) return; // replaced by a newer attempt
        this.signingIn = null;
        this.signedOutMessage = expiry.aborted ? { code: 'code_expired' } : { code: 'sign_in_failed', error: error.message };
        this.emitState();
      });
    return account;
  }

  cancelSignIn(): void {
    this.signingIn?.abort.abort();
    this.signingIn = null;
    this.emitState();
  }

  async signInWithPassword(credentials: HostPasswordSignIn): Promise<HostAccount> {
    if (this.session) return this.state().account;
    await this.signedIn(await signInWithPassword(this.anonymousApi(), this.device, credentials));
    return this.state().account;
  }

  /** Starts downloading a model the plan allows (progress arrives in the state). */
  async downloadModel(name: string): Promise<void> {
    const document = this.entitlements;
    if (!this.session || !document) throw new HostRefusal({ code: 'sign_in_to_download' });
    if (!document.models.some((m) => m.name === name)) throw new HostRefusal({ code: 'not_in_plan', model: name });
    await this.models.download(this.session.api, document, name).catch((error: Error) => {
      throw new HostRefusal({ code: 'model_store_failed', detail: error.message });
    });
  }

  async removeModel(name: string): Promise<void> {
    await this.models.remove(name).catch((error: Error) => {
      throw new HostRefusal({ code: 'model_store_failed', detail: error.message });
    });
  }

  /** Signs this device out: ends its session at the api when it can, and forgets the tokens and the document. */
  async signOut(message: HostSignedOutMessage | null = null, tellApi = true): Promise<void> {
    const session = this.session;
    if (!session || this.signingOut === session) return;
    this.signingOut = session;
    // Signed out in the state only once it is done, with its reason: a window that showed the
    // state between the two saw "signed out" with no reason and the tokens still on disk.
    await session.stream.stop();
    await session.keeper.settle();
    if (tellApi) await session.api.request('/logout/', { body: {}, schema: MessageAnswer }).catch(() => undefined);
    await Promise.all([this.files.account.remove(), this.files.trust.remove(), this.files.entitlements.remove()]);
    this.session = null;
    this.signingOut = null;
    this.signedOutMessage = message;
    this.emitState();
    this.emit('entitlements', null);
  }

  async close(): Promise<void> {
    clearInterval(this.refetch);
    this.signingIn?.abort.abort();
    await this.models.close();
    if (this.boundary) clearTimeout(this.boundary);
    await this.session?.stream.stop();
    await this.session?.keeper.settle();
    this.session = null;
  }

  private anonymousApi(): ApiClient {
    return new ApiClient(this.config.api, null, { onRotate: async () => undefined, onSignedOut: () => undefined });
  }

  private async signedIn(answer: { access_token: string; refresh_token: string; device_id: string }): Promise<void> {
    const account: AccountRecord = {
      api: this.config.api,
      device_id: answer.device_id,
      device_name: this.config.deviceName,
      access_token: answer.access_token,
      refresh_token: answer.refresh_token,
    };
    await this.files.account.write(account);
    this.signingIn = null;
    this.signedOutMessage = null;
    await this.resume(account, true);
  }

  private async resume(account: AccountRecord, firstSignIn: boolean): Promise<void> {
    const api = new ApiClient(account.api, account, {
      onRotate: (tokens: DeviceTokens) => this.files.account.write({ ...account, ...tokens }),
      onSignedOut: (reason) => void this.signOut({ code: 'session_ended', reason }, false),
    });
    const keeper = new EntitlementKeeper(this.files, account.device_id, this.config.rootKeys ?? null, () => this.now());
    if (firstSignIn) await keeper.pinAndFetch(api);
    else await keeper.load();
    const stream = new EntitlementStream(api, {
      connection: (state) => this.connectionChanged(state),
      document: (token) => this.documentArrived(token),
      signedOut: (code) => void this.signOut({ code }, false),
      lastSeq: () => {
        const document = keeper.document;
        return document && Date.now() / 1000 - document.iat < REFETCH_AFTER_SECONDS ? document.seq : null;
      },
      log: (message) => this.log(message),
    });
    this.session = { account, api, keeper, stream };
    await this.models.resume(api, () => keeper.document);
    this.emitState();
    this.emit('entitlements', keeper.document);
  }

  private async refetchIfOld(): Promise<void> {
    const session = this.session;
    const document = session?.keeper.document;
    if (!session || !document || this.connection !== 'online' || Date.now() / 1000 - document.iat < REFETCH_AFTER_SECONDS) return;
    await session.keeper.fetch(session.api).then(
      () => this.emitState(),
      (error: Error) => this.log(`entitlements: ${error.message}`),
    );
  }

  private connectionChanged(state: HostConnection): void {
    this.streamConnection = state;
    const session = this.session;
    if (state === 'online' && session?.keeper.clockWentBack(this.now())) {
      // The clock went back while offline: only a document from the api vouches for the time
      // again, so the host says it is online once it has asked for one.
      void session.keeper
        .fetch(session.api)
        .then(
          () => this.emit('entitlements', session.keeper.document),
          (error: Error) => this.log(`entitlements: ${error.message}`),
        )
        .finally(() => this.setConnection(this.streamConnection));
      return;
    }
    this.setConnection(state);
  }

  private setConnection(state: HostConnection): void {
    if (state === this.connection) return;
    this.connection = state;
    this.emitState();
  }

  /** The clock's latest reading moves the trusted time on (a clock set back later is caught against it). */
  private observeClock(): void {
    this.session?.keeper.observe(this.now()).catch((error: Error) => this.log(`entitlements: ${error.message}`));
  }

  private async documentArrived(token: string): Promise<void> {
    const session = this.session;
    if (!session) return;
    const before = session.keeper.document?.seq;
    const document = await session.keeper.accept(token, session.api);
    if (document.seq !== before) this.emit('entitlements', document);
    this.emitState();
  }

  /** Tells listeners, and wakes again when the document's status will change (expiry, end of grace). */
  private emitState(): void {
    this.observeClock();
    const state = this.state();
    if (this.boundary) clearTimeout(this.boundary);
    const document = this.session?.keeper.document;
    if (document) {
      const now = this.now().getTime() / 1000;
      const next = [document.exp, document.grace_until].find((at) => at >= now);
      if (next !== undefined) this.boundary = setTimeout(() => this.emitState(), Math.min(2 ** 31 - 1, (next - now) * 1000 + 1000)).unref();
    }
    this.emit('state', state);
  }
}

/** Whether models may be served: only with a document that has not passed its grace. */
function servingAt(signedIn: boolean, entitlements: HostState['entitlements'], problem: HostTrustProblem | null): HostState['serving'] {
  if (!signedIn) return { allowed: false, reason: { code: 'signed_out' } };
  if (problem) return { allowed: false, reason: { code: 'untrusted', problem } };
  if (!entitlements) return { allowed: false, reason: { code: 'awaiting_plan' } };
  if (entitlements.status === 'expired')
    return { allowed: false, reason: { code: 'plan_expired', since: entitlements.expires_at.slice(0, 10) } };
  return { allowed: true, reason: null };
}

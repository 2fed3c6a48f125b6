/**
 * A LAN of desktop hosts, set up the one way the namespaced specs and bench:network need it: a
 * LAN lab, the api world, the object store reachable from every machine at the loopback address
 * the api's presigned links name, and hosts started on chosen machines, each reaching the api
 * through a relay of its own (so a test can cut one machine's way to it), signed in to one
 * account and shown the model. `close()` removes it all: hosts, relays, the world (when made
 * here) and the lab.
 */
import { TEST_PASSWORD } from '../api/accounts';
import { networksWorld, type NetworksWorld } from '../api/network-kit';
import { apiRelay } from './host-harness';
import { type LanHost, startLanHost } from './lan-host';
import { type LanLab, startLanLab } from './lan-lab';

export type ApiRelay = Awaited<ReturnType<typeof apiRelay>>;

export interface LanOptions {
  /** The api world to use (kept open at `close()`); by default one is made here, and closed. */
  world?: NetworksWorld;
  /** Whether machines reach the object store (hosts that download models do); default true. */
  objectStore?: boolean;
}

export interface Lan {
  lab: LanLab;
  world: NetworksWorld;
  /**
   * Starts a host on each machine of `machines` (`{ studio: 'm1' }`: the key names it, `Studio`),
   * all at once; then, one after another (sign-ins of one account at the same moment can meet at
   * the api: 409), signs each in as `email` and waits for `model` in its plan. Options as
   * `startLanHost`'s.
   */
  startHosts<Name extends string>(
    machines: Record<Name, string>,
    account: { email: string; model: string },
    options?: Parameters<typeof startLanHost>[4],
  ): Promise<Record<Name, LanHost>>;
  /** The relay between the host named `name` (its key) and the api: `cut()`, `restore()`. */
  relay(name: string): ApiRelay;
  close(): Promise<void>;
}

/** A lab of `machines` machines (m1…mN) and the world: no host yet. */
export async function startLan(machines: number, options: LanOptions = {}): Promise<Lan> {
  const relays = new Map<string, ApiRelay>();
  const hosts: LanHost[] = [];
  let lab: LanLab | undefined;
  let world = options.world;
  const close = async () => {
    await Promise.all(hosts.map((host) => host.close().catch(() => undefined)));
    await Promise.all([...relays.values()].map((relay) => relay.close()));
    if (!options.world) await world?.close();
    await lab?.close();
  };
  try {
    lab = await startLanLab(machines);
    world ??= await networksWorld();
    if (options.objectStore ?? true) {
      // Models come down from the object store by the api's presigned links, which name it on loopback.
      const storage = new URL(process.env.S3_ENDPOINT ?? 'http://127.0.0.1:19000');
      const storageRelay = await apiRelay(Number(storage.port), lab);
      relays.set('object store', storageRelay);
      // Those links are signed for the store's loopback host, so each machine reaches it under that
      // name: its own loopback port leads, over the LAN, to the relay above.
      const overTheLan = `${lab.gateway}:${new URL(storageRelay.base).port}`;
      await Promise.all(lab.machines.map(({ name }) => lab!.relay(name, `127.0.0.1:${storage.port}`, overTheLan)));
    }
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const made = { lab, world };
  const apiPort = Number(new URL(made.world.base).port);

  return {
    ...made,
    async startHosts(machines, { email, model }, hostOptions) {
      const entries = Object.entries(machines) as [keyof typeof machines & string, string][];
      const started = await Promise.allSettled(
        entries.map(async ([name, machine]) => {
          const relay = await apiRelay(apiPort, made.lab);
          relays.set(name, relay);
          const host = await startLanHost(made.lab, machine, relay.base, name[0]!.toUpperCase() + name.slice(1), hostOptions);
          hosts.push(host);
          return host;
        }),
      );
      const failed = started.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      const named = Object.fromEntries(
        entries.map(([name], index) => [name, (started[index] as PromiseFulfilledResult<LanHost>).value]),
      ) as Record<keyof typeof machines, LanHost>;
      for (const host of Object.values<LanHost>(named)) {
        const signedIn = await host.call('POST', '/host/sign-in/password', { email, password: TEST_PASSWORD });
        if (signedIn.status !== 200) throw new Error(`${host.name} could not sign in: ${JSON.stringify(signedIn)}`);
        await host.until((s) => s.models.some((m) => m.name === model), 20_000, 'the model in the plan');
      }
      return named;
    },
    relay(name) {
      const relay = relays.get(name);
      if (!relay) throw new Error(`no relay for ${name} (there are ${[...relays.keys()].join(', ')})`);
      return relay;
    },
    close,
  };
}

/** Downloads `model` on `host` and waits until it is installed. */
export async function installModel(host: LanHost, model: string, timeoutMs = 120_000): Promise<void> {
  const answer = await host.call('POST', '/host/models/download', { name: model });
  if (answer.status !== 200) throw new Error(`${host.name} could not download ${model}: ${JSON.stringify(answer.body)}`);
  await host.until((s) => s.models.find((m) => m.name === model)?.status === 'installed', timeoutMs, 'the model installed');
}

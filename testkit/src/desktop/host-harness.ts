import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EntitlementKeySet, HostState, LAN_NETWORK_PORT } from '@meshwork/contracts';
import { startRuntime } from '../../../desktop/src/runtime/runtime';
import { type Relay, startRelay } from '../socket-relay.cjs';
import type { LanLab } from './lan-lab';

/**
 * A TCP relay in front of the api: `cut()` drops every connection and refuses new ones (the
 * api unreachable, as when a laptop leaves the office), `restore()` lets them through again.
 * It listens on loopback, or for the machines of a LAN lab on the lab's gateway: there on a
 * Unix socket the lab exposes (`LanLab.expose`), since no address of this namespace is on the LAN.
 */
export async function apiRelay(apiPort: number, lab?: LanLab): Promise<Relay & { base: string }> {
  const socketPath = lab ? join(tmpdir(), `meshwork-relay-${randomUUID().slice(0, 8)}.sock`) : null;
  const relay = await startRelay(socketPath ?? '127.0.0.1:0', `127.0.0.1:${apiPort}`);
  const base = lab ? `http://${lab.gateway}:${await lab.expose(socketPath!)}` : `http://127.0.0.1:${relay.port}`;
  return Object.assign(relay, { base });
}

/**
 * The data directories this harness made: removed when the host on them closes, so a test run
 * leaves /tmp as it found it. A host restarted on one (`dataDir`) owns it from then on.
 */
const madeHere = new Set<string>();

/** A host and its loopback UI server on a fresh data directory, driven as the UI would (a session cookie for a one-time code). */
export async function startHost(
  api: string,
  options: {
    dataDir?: string;
    name?: string;
    fingerprint?: string;
    /** The machine's LAN address: the OpenAI api and the network listen there on their usual ports (loopback and any free ports by default). */
    address?: string;
    clock?: () => Date;
    /** The keys a release would carry (release.json); none: the host pins the api's at first sign-in. */
    rootKeys?: EntitlementKeySet | null;
  } = {},
) {
  const address = options.address ?? '127.0.0.1';
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'meshwork-host-')));
  if (!options.dataDir) madeHere.add(dataDir);
  const fingerprint = options.fingerprint ?? `fp-${randomUUID()}`;
  const runtime = await startRuntime({
    dataDir,
    api,
    deviceName: options.name ?? 'Test host',
    fingerprint,
    version: '0.1.0',
    log: process.env.MESHWORK_TEST_LOG ? (message: string) => console.log(`[${options.name ?? 'host'}] ${message}`) : () => undefined,
    uiPort: 0,
    apiAddress: address,
    apiPort: options.address ? 8431 : 0,
    lanAddress: address,
    lanPort: options.address ? LAN_NETWORK_PORT : 0,
    clock: options.clock,
    rootKeys: options.rootKeys,
  });
  const { host, control } = runtime;
  const launch = await fetch(control.windowUrl(), { redirect: 'manual' });
  const cookie = launch.headers.get('set-cookie')!.split(';')[0]!;

  /** A call to the host's UI api, as its page makes it. */
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${control.origin}${path}`, {
      method,
      headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json', Origin: control.origin }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const state = async () => HostState.parse((await call('GET', '/host/state')).body);

  /** Resolves with the state once `match` holds, or fails after `timeoutMs` with the last state seen. */
  async function until(match: (s: HostState) => boolean, timeoutMs: number, what: string): Promise<HostState> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = host.state();
      if (match(now)) return now;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; state ${JSON.stringify(now)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    host,
    control,
    runtime,
    /** The OpenAI-compatible api's base URL. */
    openaiBase: `http://${address}:${runtime.openai.port}/v1`,
    dataDir,
    fingerprint,
    call,
    state,
    until,
    /** Stops the host and removes the data directory the harness made (`keepData`: a test restarts a host on it). */
    async close(options: { keepData?: boolean } = {}) {
      await runtime.close();
      if (options.keepData || !madeHere.has(dataDir)) return;
      madeHere.delete(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestHost = Awaited<ReturnType<typeof startHost>>;

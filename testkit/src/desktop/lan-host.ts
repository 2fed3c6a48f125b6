/**
 * A desktop host running in a LAN lab machine (its own network namespace), as the test sees
 * it: calls to its window routes, its state, its clock, and the entitlement documents it
 * applied (with the time each arrived, on the one clock every namespace shares).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { EntitledPlan, HostState } from '@meshwork/contracts';
import type { LanLab } from './lan-lab';
import { createMemoryCgroup, type MemoryCgroup, sweepMemoryCgroups } from './memory-cgroup';

const repositoryRoot = resolve(__dirname, '..', '..', '..');

/**
 * `ip netns exec` gives the machine a sysfs of its own, without the cgroup mounts: the shell
 * mounts cgroup v1's memory hierarchy where it was (in the machine's own mount namespace, gone
 * with it), so it can join its group there and the host can read its limit as on any device.
 */
const MOUNT_MEMORY_CGROUPS =
  '[ -e /sys/fs/cgroup/memory/cgroup.procs ] || { mount -t tmpfs cgroups /sys/fs/cgroup && mkdir /sys/fs/cgroup/memory && mount -t cgroup -o memory memory /sys/fs/cgroup/memory; } && ';

export interface AppliedDocument {
  seq: number;
  at: number;
  plan: EntitledPlan;
}

export async function startLanHost(
  lab: LanLab,
  machine: string,
  api: string,
  name: string,
  options: {
    cpus?: string;
    speed?: number;
    /** Runs the host in a memory cgroup capped at this many bytes (as root), removed at close(). */
    memoryLimitBytes?: number;
  } = {},
) {
  const { address } = lab.machine(machine);
  const dataDir = await mkdtemp(join(tmpdir(), `meshwork-${machine}-`));
  const agent = ['-r', '@swc-node/register', 'testkit/src/desktop/lan-agent.ts'];
  // `taskset` pins the host to some of the machine's cores (the benchmark's devices).
  let [command, args] = options.cpus ? ['taskset', ['-c', options.cpus, process.execPath, ...agent]] : [process.execPath, agent];
  let cgroup: MemoryCgroup | undefined;
  if (options.memoryLimitBytes !== undefined) {
    // Groups a killed run left go first; then the shell joins this one before it execs the host, so every page the host touches is charged.
    await sweepMemoryCgroups();
    cgroup = await createMemoryCgroup(options.memoryLimitBytes);
    [command, args] = ['sh', ['-c', `${MOUNT_MEMORY_CGROUPS}${cgroup.joinScript()}exec "$@"`, 'sh', command, ...args]];
  }
  const child = lab.spawn(machine, command, args, {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      MESHWORK_AGENT: JSON.stringify({ api, name, address, fingerprint: `fp-${randomUUID()}`, dataDir, speed: options.speed }),
    },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const documents: AppliedDocument[] = [];
  /** Called with each document as it arrives (`documentWhere` waits through it). */
  const documentWaiters = new Set<(document: AppliedDocument) => void>();
  const logs: string[] = [];
  let nextId = 1;
  let exited: Error | null = null;
  const ready = new Promise<{ openai: string; pid: number }>((resolveReady, rejectReady) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return void logs.push(line);
      }
      if (message.ready) resolveReady(message.ready as { openai: string; pid: number });
      else if (message.fatal) rejectReady(new Error(`${name}: ${String(message.fatal)}`));
      else if (message.entitlements) {
        const document = message.entitlements as AppliedDocument;
        documents.push(document);
        for (const waiter of documentWaiters) waiter(document);
      } else if (typeof message.id === 'number') {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiting?.reject(new Error(String(message.error)));
        else waiting?.resolve(message.result);
      }
    });
    createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));
    child.once('exit', (code, signal) => {
      exited = new Error(`${name} exited (${signal ?? code}): ${logs.slice(-5).join(' | ')}`);
      rejectReady(exited);
      for (const waiting of pending.values()) waiting.reject(exited);
      pending.clear();
    });
  });
  const started = await ready.catch(async (error: Error) => {
    await cgroup?.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  // The host's OpenAI api listens on its LAN address, which this (the root) namespace reaches only through the lab.
  const served = new URL(started.openai);
  served.host = `127.0.0.1:${await lab.reach(machine, Number(served.port))}`;
  const openai = served.toString().replace(/\/$/, '');

  const ask = <T>(request: Record<string, unknown>): Promise<T> => {
    if (exited) return Promise.reject(exited);
    const id = nextId++;
    return new Promise<T>((resolveAnswer, reject) => {
      pending.set(id, { resolve: resolveAnswer as (value: unknown) => void, reject });
      child.stdin!.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  };
  const state = () => ask<HostState>({ state: true });

  return {
    name,
    machine,
    address,
    openai,
    documents,
    logs,
    call: (method: string, path: string, body?: unknown) =>
      ask<{ status: number; body: Record<string, unknown> }>({ call: [method, path, body] }),
    state,
    rss: () => ask<number>({ rss: true }),
    /** The host process's peak RSS so far (VmHWM), in bytes. */
    peakRss: () => ask<number>({ peak: true }),
    /** Its memory cgroup, when started with `memoryLimitBytes`: the limit, peak usage and times it hit the limit. */
    cgroup,
    /** The host's signed entitlement document, as it sends it to its network's host. */
    token: () => ask<string | null>({ token: true }),
    /** Moves the host's clock `ms` ahead of the real one (0: back to it); answers the state then. */
    advance: (ms: number) => ask<HostState>({ advance: ms }),
    async until(match: (s: HostState) => boolean, timeoutMs: number, what: string): Promise<HostState> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = await state();
        if (match(now)) return now;
        if (Date.now() > deadline) throw new Error(`${name}: no ${what} within ${timeoutMs} ms; state ${JSON.stringify(now)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    /** The first applied document that matches, waiting for it as documents arrive. */
    documentWhere(match: (d: AppliedDocument) => boolean, timeoutMs: number, what: string): Promise<AppliedDocument> {
      const found = documents.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolveFound, reject) => {
        const timer = setTimeout(() => {
          documentWaiters.delete(waiter);
          reject(new Error(`${name}: no ${what} within ${timeoutMs} ms; documents ${JSON.stringify(documents.map((d) => d.plan))}`));
        }, timeoutMs);
        const waiter = (document: AppliedDocument) => {
          if (!match(document)) return;
          clearTimeout(timer);
          documentWaiters.delete(waiter);
          resolveFound(document);
        };
        documentWaiters.add(waiter);
      });
    },
    kill: () => child.kill('SIGKILL'),
    /** Stops the host, and removes its data directory (its models make it about 160 MB) and its memory cgroup. */
    async close() {
      if (!exited) {
        child.stdin!.end();
        await new Promise((r) => child.once('exit', r));
      }
      await cgroup?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
export type LanHost = Awaited<ReturnType<typeof startLanHost>>;

/** The hostile machine of `lan-attacker.ts` in a lab machine, as the test drives it. */
export async function startLanAttacker(lab: LanLab, machine: string) {
  const { address } = lab.machine(machine);
  const child = lab.spawn(machine, process.execPath, ['-r', '@swc-node/register', 'testkit/src/desktop/lan-attacker.ts'], {
    cwd: repositoryRoot,
    env: { ...process.env, MESHWORK_ATTACKER: JSON.stringify({ address }) },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const logs: string[] = [];
  let nextId = 1;
  const ready = new Promise<{ fingerprint: string }>((resolveReady, rejectReady) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (message.ready) resolveReady(message.ready as { fingerprint: string });
      else if (message.fatal) rejectReady(new Error(`attacker: ${String(message.fatal)}`));
      const waiting = pending.get(message.id as number);
      pending.delete(message.id as number);
      if (message.error) waiting?.reject(new Error(String(message.error)));
      else waiting?.resolve(message.result);
    });
    createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));
    child.once('exit', (code, signal) => {
      const exited = new Error(`the attacker exited (${signal ?? code}): ${logs.slice(-5).join(' | ')}`);
      rejectReady(exited);
      for (const waiting of pending.values()) waiting.reject(exited);
    });
  });
  const { fingerprint } = await ready;
  const ask = <T>(request: Record<string, unknown>): Promise<T> => {
    const id = nextId++;
    return new Promise<T>((resolveAnswer, reject) => {
      pending.set(id, { resolve: resolveAnswer as (value: unknown) => void, reject });
      child.stdin!.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  };
  type Target = { address: string; port: number };
  type Header = Record<string, unknown> & { type: string };
  return {
    address,
    fingerprint,
    /** Announces the network it heard from itself, with its own certificate. */
    spoof: () => ask<{ fingerprint: string; network: { id: string } }>({ spoof: true }),
    /** Every frame joining devices sent it, with both certificates' fingerprints. */
    captured: () => ask<Header[]>({ captured: true }),
    hello: (target: Target, device_id: string, entitlements: string) => ask<Header[]>({ hello: { target, device_id, entitlements } }),
    guess: (target: Target, code: string, device_id: string) => ask<Header[]>({ guess: { target, code, device_id } }),
    flood: (count: number) => ask<{ sent: number }>({ flood: { count } }),
    async close() {
      child.stdin!.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}
export type LanAttacker = Awaited<ReturnType<typeof startLanAttacker>>;

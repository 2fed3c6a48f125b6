/**
 * A LAN inside this Linux machine, for integration tests that need several machines: a switch
 * namespace holding a bridge, and one namespace per machine, each plugged into the bridge by a
 * veth pair. Addresses are link-local, 169.254.77.0/24 in every lab (no two labs share a link):
 * the switch is `.1` on the bridge (the gateway), machine n is `.(10 + n)` on its `eth0`. Nothing
 * is routed out: a machine has its /24 and `224.0.0.0/4` (so UDP multicast works without naming
 * an interface), no default route. A server of this process reaches the machines only through
 * `expose` (a port on the gateway forwarded to a Unix socket, which crosses namespaces), and
 * reaches a machine's server only through `reach` (the same, the other way).
 *
 * Nothing of a lab is in the root namespace, so the root namespace's links and addresses never
 * change: browsers watch those, and end every request in flight when they do (Chromium's
 * ERR_NETWORK_CHANGED), which would fail the browser tests running beside a LAN test.
 *
 * Needs root and iproute2's `ip` (with `ip netns`); `startLanLab` throws saying which is missing.
 * Every name starts with `<prefix><pid>-`: `close()` removes a lab, an exit (or SIGINT, SIGTERM,
 * SIGHUP) of this process removes what is still open, and `startLanLab` first removes what
 * processes that no longer run left behind (killed with SIGKILL, say).
 */
import { type ChildProcess, execFile, execFileSync, spawn as spawnProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { type Relay, RELAY_SCRIPT, startRelay } from '../socket-relay.cjs';
import { pidAlive } from './pid-alive';

export interface LanMachine {
  /** `m1`, `m2`, … */
  name: string;
  /** Its network namespace (`ip netns exec <namespace> …`). */
  namespace: string;
  /** Its IPv4 address on the LAN, on `eth0` inside the namespace. */
  address: string;
  /** The switch's end of its veth pair, a port of the bridge: `unplug` takes it down. */
  veth: string;
}

export interface LanLab {
  /** The stem of every name of this lab: `<prefix><pid>-<n>`. */
  id: string;
  /** The LAN, e.g. `169.254.77.0/24`. */
  subnet: string;
  /** The switch's address on the bridge, where `expose` listens: `169.254.77.1`. */
  gateway: string;
  /** The namespace of the switch: the bridge and the switch's end of every veth pair. */
  switchNamespace: string;
  /** The bridge, in the switch namespace. */
  bridge: string;
  /** Machine n (from 1) is `m<n>` at `.(10 + n)`. */
  machines: LanMachine[];
  /** The machine called `name`; throws for another name. */
  machine(name: string): LanMachine;
  /**
   * Starts `command args` inside the machine's namespace (`ip netns exec`), in a process group of
   * its own, stdio piped. `command` is looked up on `env.PATH` (default: this process's env).
   * Every process still running at `close()` gets SIGTERM, then SIGKILL after a grace.
   */
  spawn(machine: string, command: string, args: string[], options?: { env?: NodeJS.ProcessEnv; cwd?: string }): ChildProcess;
  /** Runs `command args` in the machine to its end, killed (and rejected) after `timeoutMs` (10 s). */
  run(
    machine: string,
    command: string,
    args: string[],
    options?: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
  ): Promise<RunResult>;
  /**
   * Makes the Unix socket at `socketPath` reachable from every machine at `gateway:<port>`:
   * resolves with the port once it listens. The relay lives until the lab closes; a
   * connection to it is closed as soon as the socket's server closes its end.
   */
  expose(socketPath: string): Promise<number>;
  /**
   * The other way: a port on this process's loopback leading to `port` on the machine's address
   * (through a Unix socket a relay in the machine serves). Resolves once both ends listen;
   * both close with the lab.
   */
  reach(machine: string, port: number): Promise<number>;
  /**
   * A relay inside the machine from `from` to `to` (`host:port`, or a Unix socket's path), until
   * the lab closes; resolves once it listens.
   */
  relay(machine: string, from: string, to: string): Promise<void>;
  /** Takes the machine's bridge port down (its cable pulled: it leaves the LAN); resolves once the port is down. */
  unplug(machine: string): Promise<void>;
  /** Brings the port back up; resolves once the bridge forwards through it again. */
  plug(machine: string): Promise<void>;
  /** Kills every process spawned here (and any other in the namespaces), then deletes the namespaces (with them their links). */
  close(): Promise<void>;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface LanLabOptions {
  /** Letters that start every name (default `mwl`); leftovers are found by it. */
  prefix?: string;
  /** The `ip` binary (default: `ip` on PATH, or in /usr/sbin, /sbin). */
  ip?: string;
}

/** Any one `ip` call. */
const IP_TIMEOUT_MS = 10_000;
/** Inside the lab's own namespaces, so every lab can have the same. */
const SUBNET = '169.254.77';
/** From SIGTERM to SIGKILL at `close()`. */
const KILL_GRACE_MS = 2_000;
/** For a port to come up or go down, and for a killed process to be gone. */
const SETTLE_TIMEOUT_MS = 5_000;
/** Inside each machine's namespace. */
const MACHINE_INTERFACE = 'eth0';
/** In the switch namespace. */
const BRIDGE = 'lan';

/**
 * This process's own `process`. Under Jest the global `process` is a copy whose 'exit' is never
 * emitted; code run with `vm.runInThisContext` sees the real one.
 */
const hostProcess: NodeJS.Process = (() => {
  try {
    const real = runInThisContext('process') as NodeJS.Process;
    return typeof real?.on === 'function' ? real : process;
  } catch {
    return process;
  }
})();

/** Starts a LAN of `count` machines (1 to 99). Throws if not root or `ip netns` is unavailable. */
export async function startLanLab(count: number, options: LanLabOptions = {}): Promise<LanLab> {
  const prefix = options.prefix ?? 'mwl';
  if (!/^[a-z]+$/i.test(prefix)) throw new Error(`LAN lab: prefix must be letters only, not ${JSON.stringify(prefix)}`);
  if (!Number.isInteger(count) || count < 1 || count > 99) throw new Error(`LAN lab: 1 to 99 machines, not ${count}`);
  const ip = await prerequisites(options.ip);

  await sweepLeftovers(ip, prefix);

  const id = `${prefix}${hostProcess.pid}-${nextSequence().toString(36)}`;
  const lab = new Lab(ip, id);
  openLabs.add(lab);
  watchExit();
  try {
    const inSwitch = ['-n', lab.switchNamespace];
    await ip.run(['netns', 'add', lab.switchNamespace]);
    lab.namespaces.push(lab.switchNamespace);
    await ip.run([...inSwitch, 'link', 'set', 'lo', 'up']);
    await ip.run([
      ...inSwitch,
      'link',
      'add',
      'name',
      BRIDGE,
      'type',
      'bridge',
      'stp_state',
      '0',
      'forward_delay',
      '0',
      'mcast_snooping',
      '0',
    ]);
    await ip.run([...inSwitch, 'link', 'set', BRIDGE, 'up']);
    await ip.run([...inSwitch, 'address', 'add', `${lab.gateway}/24`, 'dev', BRIDGE]);

    await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const name = `m${index + 1}`;
        const machine: LanMachine = { name, namespace: `${id}-${name}`, address: `${SUBNET}.${11 + index}`, veth: name };
        lab.machines.push(machine);
        const inside = ['-n', machine.namespace];
        await ip.run(['netns', 'add', machine.namespace]);
        lab.namespaces.push(machine.namespace);
        // Made in the switch with its peer straight in the machine: no end of it ever in the root namespace.
        await ip.run([
          ...inSwitch,
          'link',
          'add',
          'name',
          machine.veth,
          'type',
          'veth',
          'peer',
          'name',
          MACHINE_INTERFACE,
          'netns',
          machine.namespace,
        ]);
        await ip.run([...inSwitch, 'link', 'set', machine.veth, 'master', BRIDGE]);
        await ip.run([...inSwitch, 'link', 'set', machine.veth, 'up']);
        await ip.run([...inside, 'link', 'set', 'lo', 'up']);
        await ip.run([...inside, 'address', 'add', `${machine.address}/24`, 'dev', MACHINE_INTERFACE]);
        await ip.run([...inside, 'link', 'set', MACHINE_INTERFACE, 'up']);
        await ip.run([...inside, 'route', 'add', '224.0.0.0/4', 'dev', MACHINE_INTERFACE]);
      }),
    );
    lab.machines.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    await Promise.all(lab.machines.map((machine) => lab.waitForPort(machine.veth, true)));
  } catch (error) {
    await lab.close().catch(() => undefined);
    throw error;
  }
  return lab.api();
}

/** What one lab made, and how to remove it. */
class Lab {
  readonly subnet = `${SUBNET}.0/24`;
  readonly gateway = `${SUBNET}.1`;
  readonly switchNamespace: string;
  readonly machines: LanMachine[] = [];
  /** The switch's first, then the machines'. */
  readonly namespaces: string[] = [];
  readonly children = new Set<ChildProcess>();
  /** `reach`'s relays on this process's loopback, and the Unix sockets the machines' relays serve. */
  private readonly loopbackRelays: Relay[] = [];
  private readonly socketPaths: string[] = [];
  private closing?: Promise<void>;

  constructor(
    private readonly ip: Ip,
    readonly id: string,
  ) {
    this.switchNamespace = `${id}-sw`;
  }

  api(): LanLab {
    return {
      id: this.id,
      subnet: this.subnet,
      gateway: this.gateway,
      switchNamespace: this.switchNamespace,
      bridge: BRIDGE,
      machines: this.machines.map((machine) => ({ ...machine })),
      machine: (name) => ({ ...this.machine(name) }),
      spawn: (machine, command, args, options) => this.spawnIn(this.machine(machine).namespace, command, args, options),
      run: (machine, command, args, options) => this.run(machine, command, args, options),
      expose: (socketPath) => this.expose(socketPath),
      reach: (machine, port) => this.reach(machine, port),
      relay: async (machine, from, to) => void (await this.relayIn(this.machine(machine).namespace, from, to)),
      unplug: async (machine) => {
        const { veth } = this.machine(machine);
        await this.ip.run(['-n', this.switchNamespace, 'link', 'set', veth, 'down']);
        await this.waitForPort(veth, false);
      },
      plug: async (machine) => {
        const { veth } = this.machine(machine);
        await this.ip.run(['-n', this.switchNamespace, 'link', 'set', veth, 'up']);
        await this.waitForPort(veth, true);
      },
      close: () => this.close(),
    };
  }

  /** A relay in the switch namespace: gateway:<port> to the Unix socket, a connection each. */
  async expose(socketPath: string): Promise<number> {
    return Number(await this.relayIn(this.switchNamespace, `${this.gateway}:0`, socketPath));
  }

  async reach(name: string, port: number): Promise<number> {
    const { namespace, address } = this.machine(name);
    // One per call: a host started again on a machine serves on the same port.
    const socketPath = join(tmpdir(), `${this.id}-${name}-${port}-${this.socketPaths.length}.sock`);
    this.socketPaths.push(socketPath);
    await this.relayIn(namespace, socketPath, `${address}:${port}`);
    const loopback = await startRelay('127.0.0.1:0', socketPath);
    this.loopbackRelays.push(loopback);
    return loopback.port!;
  }

  /** Runs socket-relay.cjs in `namespace` until the lab closes; resolves with what it prints once it listens. */
  relayIn(namespace: string, from: string, to: string): Promise<string> {
    const child = this.spawnIn(namespace, process.execPath, [RELAY_SCRIPT, from, to]);
    return firstLine(child, `LAN lab ${this.id}: the relay from ${from} to ${to} in ${namespace}`);
  }

  machine(name: string): LanMachine {
    const machine = this.machines.find((m) => m.name === name);
    if (!machine) throw new Error(`LAN lab ${this.id}: no machine ${name} (there are ${this.machines.map((m) => m.name).join(', ')})`);
    return machine;
  }

  spawnIn(namespace: string, command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
    if (this.closing) throw new Error(`LAN lab ${this.id} is closed`);
    const child = spawnProcess(this.ip.path, ['netns', 'exec', namespace, command, ...args], {
      env: options.env ?? process.env,
      cwd: options.cwd,
      detached: true,
      stdio: 'pipe',
    });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    child.once('error', () => this.children.delete(child));
    return child;
  }

  run(
    name: string,
    command: string,
    args: string[],
    options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
  ): Promise<RunResult> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const child = this.spawnIn(this.machine(name).namespace, command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    return new Promise<RunResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        killGroup(child, 'SIGKILL');
        reject(
          new Error(`${name}: ${command} ${args.join(' ')} did not finish within ${timeoutMs} ms; stdout ${stdout}; stderr ${stderr}`),
        );
      }, timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  /** Until the port is up and forwarding (or down), within SETTLE_TIMEOUT_MS. */
  async waitForPort(veth: string, up: boolean): Promise<void> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let seen = '';
    for (;;) {
      const [link] = JSON.parse(await this.ip.run(['-n', this.switchNamespace, '-j', '-d', 'link', 'show', 'dev', veth])) as {
        operstate?: string;
        linkinfo?: { info_slave_data?: { state?: string } };
      }[];
      const port = link?.linkinfo?.info_slave_data?.state;
      seen = `operstate ${link?.operstate}, bridge port ${port}`;
      if (up ? link?.operstate === 'UP' && port === 'forwarding' : link?.operstate === 'DOWN') return;
      if (Date.now() > deadline)
        throw new Error(`LAN lab ${this.id}: ${veth} not ${up ? 'up' : 'down'} within ${SETTLE_TIMEOUT_MS} ms (${seen})`);
      await sleep(20);
    }
  }

  close(): Promise<void> {
    this.closing ??= this.teardown().finally(() => {
      openLabs.delete(this);
      unwatchExitIfIdle();
    });
    return this.closing;
  }

  private async teardown(): Promise<void> {
    await Promise.all(this.loopbackRelays.map((relay) => relay.close()));
    const running = [...this.children].filter(isRunning);
    for (const child of running) killGroup(child, 'SIGTERM');
    await Promise.all(running.map((child) => exited(child, KILL_GRACE_MS)));
    for (const child of running) killGroup(child, 'SIGKILL');
    const stuck = (await Promise.all(running.map(async (child) => ((await exited(child, SETTLE_TIMEOUT_MS)) ? [] : [child.pid])))).flat();

    // Anything else in the namespaces (started without spawn(), or a process that left its group).
    for (const namespace of this.namespaces) await killNamespaceProcesses(this.ip, namespace);

    const failures: string[] = [];
    // A namespace takes its links with it, and a veth pair goes with either end.
    for (const namespace of this.namespaces) await this.ip.run(['netns', 'delete', namespace]).catch(unlessGone(failures));

    // A relay killed leaves its socket's file behind.
    await Promise.all(this.socketPaths.map((socketPath) => rm(socketPath, { force: true })));
    const left = await remaining(this.ip, this.namespaces);
    if (stuck.length > 0) failures.push(`processes ${stuck.join(', ')} outlived SIGKILL for ${SETTLE_TIMEOUT_MS} ms`);
    if (left.length > 0) failures.push(`still there: ${left.join(', ')}`);
    if (failures.length > 0) throw new Error(`LAN lab ${this.id} did not close cleanly: ${failures.join('; ')}`);
  }

  /** At exit: no waiting, no grace. */
  destroySync(): void {
    for (const child of this.children) if (isRunning(child)) killGroup(child, 'SIGKILL');
    for (const namespace of this.namespaces) {
      for (const pid of this.ip.runSync(['netns', 'pids', namespace]).split(/\s+/).filter(Boolean)) killPid(Number(pid));
    }
    for (const namespace of this.namespaces) this.ip.runSync(['netns', 'delete', namespace]);
    openLabs.delete(this);
  }
}

/** The `ip` binary, every call bounded by IP_TIMEOUT_MS. */
class Ip {
  constructor(readonly path: string) {}

  run(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(this.path, args, { timeout: IP_TIMEOUT_MS, killSignal: 'SIGKILL', encoding: 'utf8' }, (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const why = error.killed ? `timed out after ${IP_TIMEOUT_MS} ms` : (stderr.trim() || error.message).replace(/\s+/g, ' ');
        reject(new Error(`LAN lab: \`ip ${args.join(' ')}\` failed: ${why}`));
      });
    });
  }

  /** For the exit handler: errors are ignored (the thing may be gone already). */
  runSync(args: string[]): string {
    try {
      return execFileSync(this.path, args, {
        timeout: IP_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      return '';
    }
  }
}

async function prerequisites(ipOption: string | undefined): Promise<Ip> {
  if (process.platform !== 'linux') throw new Error(`LAN lab needs Linux network namespaces; this is ${process.platform}`);
  const uid = process.getuid?.();
  if (uid !== 0) {
    throw new Error(`LAN lab needs root (uid 0) to create network namespaces, veth pairs and a bridge; this process runs as uid ${uid}`);
  }
  const searched = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  const path = ipOption ?? searched.map((dir) => join(dir, 'ip')).find(isExecutable);
  if (!path || !isExecutable(path)) {
    throw new Error(
      `LAN lab needs the \`ip\` command (iproute2): ${ipOption ?? 'ip'} is not an executable file (searched ${searched.join(':')})`,
    );
  }
  const ip = new Ip(path);
  try {
    await ip.run(['netns', 'list']);
  } catch (error) {
    throw new Error(`LAN lab needs \`ip netns\` (network namespaces): ${(error as Error).message}`);
  }
  return ip;
}

/** Namespaces named `<prefix><pid>-…` whose pid no longer runs: their processes killed, then deleted. */
async function sweepLeftovers(ip: Ip, prefix: string): Promise<void> {
  const pattern = new RegExp(`^${prefix}(\\d+)-`);
  const abandoned = (name: string) => {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN);
    return Number.isInteger(pid) && pid !== hostProcess.pid && !pidAlive(pid);
  };
  const namespaces = (JSON.parse((await ip.run(['-j', 'netns', 'list'])).trim() || '[]') as { name: string }[])
    .map((n) => n.name)
    .filter(abandoned);
  // Another lab may be sweeping the same leftovers: what is gone already is fine.
  for (const namespace of namespaces) await killNamespaceProcesses(ip, namespace).catch(() => undefined);
  const failures: string[] = [];
  for (const namespace of namespaces) await ip.run(['netns', 'delete', namespace]).catch(unlessGone(failures));
  if (failures.length > 0) throw new Error(`LAN lab: could not remove leftovers of earlier runs: ${failures.join('; ')}`);
}

async function killNamespaceProcesses(ip: Ip, namespace: string): Promise<void> {
  const pids = (await ip.run(['netns', 'pids', namespace]).catch(() => '')).split(/\s+/).filter(Boolean);
  for (const pid of pids) killPid(Number(pid));
}

/** Which of these namespaces still exist. */
async function remaining(ip: Ip, namespaces: string[]): Promise<string[]> {
  const existing = new Set((JSON.parse((await ip.run(['-j', 'netns', 'list'])).trim() || '[]') as { name: string }[]).map((n) => n.name));
  return namespaces.filter((n) => existing.has(n)).map((n) => `netns ${n}`);
}

/** A deletion's error is recorded unless it says the thing is gone already. */
function unlessGone(failures: string[]) {
  return (error: Error) => {
    if (!/Cannot find device|No such file or directory|does not exist/.test(error.message)) failures.push(error.message);
  };
}

// --- Cleanup when this process ends ------------------------------------------------------------

const openLabs = new Set<Lab>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let watching = false;

function destroyOpenLabs(): void {
  for (const lab of [...openLabs]) lab.destroySync();
}

/** Cleans up, then lets the signal do what it would have done had nobody listened. */
function onSignal(signal: NodeJS.Signals): void {
  destroyOpenLabs();
  const alone = hostProcess.listenerCount(signal) === 1;
  unwatchExit();
  if (alone) hostProcess.kill(hostProcess.pid, signal);
}

function watchExit(): void {
  if (watching) return;
  watching = true;
  hostProcess.on('exit', destroyOpenLabs);
  for (const signal of SIGNALS) hostProcess.on(signal, onSignal);
}

function unwatchExit(): void {
  watching = false;
  hostProcess.off('exit', destroyOpenLabs);
  for (const signal of SIGNALS) hostProcess.off(signal, onSignal);
}

function unwatchExitIfIdle(): void {
  if (openLabs.size === 0) unwatchExit();
}

/** Per process, not per module instance: Jest loads this module afresh for each test file. */
function nextSequence(): number {
  const key = Symbol.for('meshwork.lan-lab.sequence');
  const shared = hostProcess as unknown as Record<symbol, number | undefined>;
  shared[key] = (shared[key] ?? 0) + 1;
  return shared[key];
}

// --- Processes ---------------------------------------------------------------------------------

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/** The child's whole process group (spawned detached, it leads one). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    hostProcess.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

function killPid(pid: number): void {
  try {
    hostProcess.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** The first line a relay prints once it listens; rejects, saying what it printed to stderr, if it exits first. */
function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let errors = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.stdout!.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
    child.once('exit', (code, signal) => reject(new Error(`${what} exited (${signal ?? code}): ${errors}`)));
  });
}

/** Whether the child has exited within `ms`. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (!isRunning(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A LAN inside this Linux machine, for integration tests that need several machines: a bridge in
 * the root network namespace and one namespace per machine, each plugged into the bridge by a veth
 * pair. Addresses are link-local (169.254.X.0/24, X chosen free per lab, 77 first): the root
 * namespace is `.1` on the bridge (the gateway, where a test's api relay listens), machine n is
 * `.(10 + n)` on its `eth0`. Nothing is routed out: a machine has its /24 and `224.0.0.0/4` (so
 * UDP multicast works without naming an interface), no default route.
 *
 * Needs root and iproute2's `ip` (with `ip netns`); `startLanLab` throws saying which is missing.
 * Every name starts with `<prefix><pid>-`: `close()` removes a lab, an exit (or SIGINT, SIGTERM,
 * SIGHUP) of this process removes what is still open, and `startLanLab` first removes what
 * processes that no longer run left behind (killed with SIGKILL, say).
 */
import { type ChildProcess, execFile, execFileSync, spawn as spawnProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { pidAlive } from './pid-alive';

export interface LanMachine {
  /** `m1`, `m2`, … */
  name: string;
  /** Its network namespace (`ip netns exec <namespace> …`). */
  namespace: string;
  /** Its IPv4 address on the LAN, on `eth0` inside the namespace. */
  address: string;
  /** The root namespace's end of its veth pair, a port of the bridge: `unplug` takes it down. */
  veth: string;
}

export interface LanLab {
  /** The stem of every name of this lab: `<prefix><pid>-<n>`. */
  id: string;
  /** The LAN, e.g. `169.254.77.0/24`. */
  subnet: string;
  /** The root namespace's address on the bridge (the api relay listens here), e.g. `169.254.77.1`. */
  gateway: string;
  /** The bridge, in the root namespace. */
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
  /** Takes the machine's bridge port down (its cable pulled: it leaves the LAN); resolves once the port is down. */
  unplug(machine: string): Promise<void>;
  /** Brings the port back up; resolves once the bridge forwards through it again. */
  plug(machine: string): Promise<void>;
  /** Kills every process spawned here (and any other in the namespaces), deletes the veths, the bridge and the namespaces. */
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
/** From SIGTERM to SIGKILL at `close()`. */
const KILL_GRACE_MS = 2_000;
/** For a port to come up or go down, and for a killed process to be gone. */
const SETTLE_TIMEOUT_MS = 5_000;
const LINK_NAME_MAX = 15;
/** Inside each namespace. */
const MACHINE_INTERFACE = 'eth0';
/** 169.254.0.0/24 and 169.254.255.0/24 are reserved (RFC 3927); 169.254.169.254 is the cloud's metadata service. */
const THIRD_OCTETS = [...range(77, 254), ...range(1, 76)].filter((octet) => octet !== 169);

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
  const bridge = `${id}b`;
  const names = Array.from({ length: count }, (_, index) => ({ name: `m${index + 1}`, veth: `${id}v${index + 1}` }));
  const longest = [bridge, ...names.map((n) => n.veth)].reduce((a, b) => (b.length > a.length ? b : a));
  if (longest.length > LINK_NAME_MAX) {
    throw new Error(`LAN lab: link name ${longest} is longer than ${LINK_NAME_MAX} characters; use a shorter prefix or fewer machines`);
  }

  const lab = new Lab(ip, id, bridge);
  openLabs.add(lab);
  watchExit();
  try {
    await ip.run(['link', 'add', 'name', bridge, 'type', 'bridge', 'stp_state', '0', 'forward_delay', '0', 'mcast_snooping', '0']);
    lab.links.push(bridge);
    await ip.run(['link', 'set', bridge, 'up']);
    const octet = await claimSubnet(ip, bridge);
    lab.subnet = `169.254.${octet}.0/24`;
    lab.gateway = `169.254.${octet}.1`;
    await ip.run(['address', 'add', `${lab.gateway}/24`, 'dev', bridge, 'noprefixroute']);

    await Promise.all(
      names.map(async ({ name, veth }, index) => {
        const machine: LanMachine = { name, namespace: `${id}-${name}`, address: `169.254.${octet}.${11 + index}`, veth };
        lab.machines.push(machine);
        const inside = ['-n', machine.namespace];
        await ip.run(['netns', 'add', machine.namespace]);
        lab.namespaces.push(machine.namespace);
        await ip.run(['link', 'add', 'name', veth, 'type', 'veth', 'peer', 'name', MACHINE_INTERFACE, 'netns', machine.namespace]);
        lab.links.push(veth);
        await ip.run(['link', 'set', veth, 'master', bridge]);
        await ip.run(['link', 'set', veth, 'up']);
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
  subnet = '';
  gateway = '';
  readonly machines: LanMachine[] = [];
  /** In the root namespace: the bridge, then each veth. */
  readonly links: string[] = [];
  readonly namespaces: string[] = [];
  readonly children = new Set<ChildProcess>();
  private closing?: Promise<void>;

  constructor(
    private readonly ip: Ip,
    readonly id: string,
    readonly bridge: string,
  ) {}

  api(): LanLab {
    return {
      id: this.id,
      subnet: this.subnet,
      gateway: this.gateway,
      bridge: this.bridge,
      machines: this.machines.map((machine) => ({ ...machine })),
      machine: (name) => ({ ...this.machine(name) }),
      spawn: (machine, command, args, options) => this.spawn(machine, command, args, options),
      run: (machine, command, args, options) => this.run(machine, command, args, options),
      unplug: async (machine) => {
        const { veth } = this.machine(machine);
        await this.ip.run(['link', 'set', veth, 'down']);
        await this.waitForPort(veth, false);
      },
      plug: async (machine) => {
        const { veth } = this.machine(machine);
        await this.ip.run(['link', 'set', veth, 'up']);
        await this.waitForPort(veth, true);
      },
      close: () => this.close(),
    };
  }

  machine(name: string): LanMachine {
    const machine = this.machines.find((m) => m.name === name);
    if (!machine) throw new Error(`LAN lab ${this.id}: no machine ${name} (there are ${this.machines.map((m) => m.name).join(', ')})`);
    return machine;
  }

  spawn(name: string, command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
    if (this.closing) throw new Error(`LAN lab ${this.id} is closed`);
    const { namespace } = this.machine(name);
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
    const child = this.spawn(name, command, args, options);
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
      const [link] = JSON.parse(await this.ip.run(['-j', '-d', 'link', 'show', 'dev', veth])) as {
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
    const running = [...this.children].filter(isRunning);
    for (const child of running) killGroup(child, 'SIGTERM');
    await Promise.all(running.map((child) => exited(child, KILL_GRACE_MS)));
    for (const child of running) killGroup(child, 'SIGKILL');
    const stuck = (await Promise.all(running.map(async (child) => ((await exited(child, SETTLE_TIMEOUT_MS)) ? [] : [child.pid])))).flat();

    // Anything else in the namespaces (started without spawn(), or a process that left its group).
    for (const namespace of this.namespaces) await killNamespaceProcesses(this.ip, namespace);

    const failures: string[] = [];
    // Deleting a veth deletes its peer inside the namespace; the bridge goes last of the links.
    for (const link of [...this.links].reverse()) await this.ip.run(['link', 'delete', 'dev', link]).catch(unlessGone(failures));
    for (const namespace of this.namespaces) await this.ip.run(['netns', 'delete', namespace]).catch(unlessGone(failures));

    const left = await remaining(this.ip, this.links, this.namespaces);
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
    for (const link of [...this.links].reverse()) this.ip.runSync(['link', 'delete', 'dev', link]);
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

/**
 * The first free 169.254.X.0/24: not on an address of this machine, and the route to it claimed
 * on the bridge. Adding a route the main table already has fails with "File exists", so two labs
 * starting at once cannot take the same one.
 */
async function claimSubnet(ip: Ip, bridge: string): Promise<number> {
  const addresses = JSON.parse(await ip.run(['-j', '-4', 'address', 'show'])) as { addr_info?: { local?: string }[] }[];
  const taken = new Set(addresses.flatMap((link) => (link.addr_info ?? []).map((info) => info.local?.split('.').slice(0, 3).join('.'))));
  for (const octet of THIRD_OCTETS) {
    if (taken.has(`169.254.${octet}`)) continue;
    try {
      await ip.run(['route', 'add', `169.254.${octet}.0/24`, 'dev', bridge, 'scope', 'link']);
      return octet;
    } catch (error) {
      if (!/File exists/.test((error as Error).message)) throw error;
    }
  }
  throw new Error('LAN lab: no free 169.254.X.0/24 left');
}

/** Namespaces and links named `<prefix><pid>-…` whose pid no longer runs: their processes killed, then deleted. */
async function sweepLeftovers(ip: Ip, prefix: string): Promise<void> {
  const pattern = new RegExp(`^${prefix}(\\d+)-`);
  const abandoned = (name: string) => {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN);
    return Number.isInteger(pid) && pid !== hostProcess.pid && !pidAlive(pid);
  };
  const namespaces = (JSON.parse((await ip.run(['-j', 'netns', 'list'])).trim() || '[]') as { name: string }[])
    .map((n) => n.name)
    .filter(abandoned);
  const links = (JSON.parse(await ip.run(['-j', 'link', 'show'])) as { ifname: string }[]).map((link) => link.ifname).filter(abandoned);
  // Another lab may be sweeping the same leftovers: what is gone already is fine.
  for (const namespace of namespaces) await killNamespaceProcesses(ip, namespace).catch(() => undefined);
  const failures: string[] = [];
  // veths before bridges: a veth's name is longer than its bridge's.
  for (const link of links.sort((a, b) => b.length - a.length)) await ip.run(['link', 'delete', 'dev', link]).catch(unlessGone(failures));
  for (const namespace of namespaces) await ip.run(['netns', 'delete', namespace]).catch(unlessGone(failures));
  if (failures.length > 0) throw new Error(`LAN lab: could not remove leftovers of earlier runs: ${failures.join('; ')}`);
}

async function killNamespaceProcesses(ip: Ip, namespace: string): Promise<void> {
  const pids = (await ip.run(['netns', 'pids', namespace]).catch(() => '')).split(/\s+/).filter(Boolean);
  for (const pid of pids) killPid(Number(pid));
}

/** Which of these links and namespaces still exist. */
async function remaining(ip: Ip, links: string[], namespaces: string[]): Promise<string[]> {
  const existingLinks = new Set((JSON.parse(await ip.run(['-j', 'link', 'show'])) as { ifname: string }[]).map((l) => l.ifname));
  const existingNamespaces = new Set(
    (JSON.parse((await ip.run(['-j', 'netns', 'list'])).trim() || '[]') as { name: string }[]).map((n) => n.name),
  );
  return [...links.filter((l) => existingLinks.has(l)), ...namespaces.filter((n) => existingNamespaces.has(n)).map((n) => `netns ${n}`)];
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

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

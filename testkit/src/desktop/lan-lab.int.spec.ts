/**
 * The LAN lab: three machines in network namespaces on one bridge in a switch namespace. UDP
 * multicast and TCP between them, a server of this process reachable through `expose` only,
 * nothing routed out, a machine unplugged and plugged back, the root namespace's links and
 * addresses never touched, and nothing left behind by `close()`, by an exit without it, or by a
 * process killed outright. Needs root and `ip netns`, nothing else.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { type LanLab, startLanLab } from './lan-lab';

/** Node scripts run inside the machines (`node -e <script> args…`). */
const SCRIPTS = {
  /** Connects to host:port; prints {ok, data} once the server ends the connection, or {ok: false, code}. */
  connect: `
    const [host, port, timeoutMs] = process.argv.slice(1);
    const socket = require('node:net').connect({ host, port: Number(port) });
    let data = '';
    const done = (result) => { console.log(JSON.stringify(result)); socket.destroy(); };
    socket.setTimeout(Number(timeoutMs), () => done({ ok: false, code: 'TIMEOUT' }));
    socket.setEncoding('utf8').on('data', (chunk) => (data += chunk));
    socket.on('end', () => done({ ok: true, data }));
    socket.on('error', (error) => done({ ok: false, code: error.code }));
  `,
  /** Greets every connection on address:0 and prints {port}. */
  tcpServer: `
    const [address, greeting] = process.argv.slice(1);
    const server = require('node:net').createServer((socket) => socket.end(greeting));
    server.listen(0, address, () => console.log(JSON.stringify({ port: server.address().port })));
  `,
  /** Joins the group on its own address, prints 'ready', then {message, from} per datagram. */
  multicastReceiver: `
    const [group, address, port] = process.argv.slice(1);
    const socket = require('node:dgram').createSocket({ type: 'udp4', reuseAddr: true });
    socket.on('message', (message, from) => console.log(JSON.stringify({ message: message.toString(), from: from.address })));
    socket.bind(Number(port), () => {
      socket.addMembership(group, address);
      console.log('ready');
    });
  `,
  /** Sends one datagram to the group: out of the interface named by its address, or by the routing table's choice. */
  multicastSender: `
    const [group, address, port, message, how] = process.argv.slice(1);
    const socket = require('node:dgram').createSocket('udp4');
    socket.bind(0, () => {
      if (how === 'interface') socket.setMulticastInterface(address);
      socket.setMulticastTTL(1);
      socket.send(message, Number(port), group, (error) => {
        if (error) {
          console.error(error.code || error.message);
          process.exitCode = 1;
        }
        socket.close();
      });
    });
  `,
  /** Ignores SIGTERM: only SIGKILL ends it. */
  stubborn: `
    process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
    setInterval(() => undefined, 1000);
    console.log('ready');
  `,
};

const GROUP = '239.255.77.77';
const MULTICAST_PORT = 47777;

type Connection = { ok: true; data: string } | { ok: false; code: string };

/** A TCP connection from `machine` to host:port, as its script saw it. */
async function connect(lab: LanLab, machine: string, host: string, port: number, timeoutMs = 2_000): Promise<Connection> {
  const result = await lab.run(machine, process.execPath, ['-e', SCRIPTS.connect, host, String(port), String(timeoutMs)], {
    timeoutMs: timeoutMs + 5_000,
  });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as Connection;
}

/** The lines a child prints, and a bounded wait for one of them. */
function lines(child: ChildProcess) {
  const seen: string[] = [];
  let stderr = '';
  let buffer = '';
  let ended = false;
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (buffer + chunk).split('\n');
    buffer = parts.pop()!;
    seen.push(...parts);
    waiters.forEach((wake) => wake());
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.once('close', () => {
    ended = true;
    waiters.forEach((wake) => wake());
  });
  return {
    seen,
    /** The first line `match` accepts, within `ms`; rejects with what the child printed. */
    wait(match: (line: string) => boolean, ms: number, what: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no ${what} within ${ms} ms`)), ms);
        const finish = (error?: Error, line?: string) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(new Error(`${error.message}; stdout: ${seen.join(' | ')}; stderr: ${stderr}`));
          else resolve(line!);
        };
        const check = () => {
          const line = seen.find(match);
          if (line !== undefined) finish(undefined, line);
          else if (ended) finish(new Error(`the process ended (${child.exitCode ?? child.signalCode}) before ${what}`));
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** A TCP server on the machine's address that greets with `greeting`; resolves with its port. */
async function tcpServer(lab: LanLab, machine: string, greeting: string): Promise<number> {
  const child = lab.spawn(machine, process.execPath, ['-e', SCRIPTS.tcpServer, lab.machine(machine).address, greeting]);
  const line = await lines(child).wait((l) => l.startsWith('{'), 5_000, `the server on ${machine} listening`);
  return (JSON.parse(line) as { port: number }).port;
}

/** A server in this (the root) namespace, on a TCP address or a Unix socket; counts who connected. */
async function rootServer(
  address: string | { path: string },
  greeting: string,
): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.end(greeting);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (typeof address === 'string') server.listen(0, address, resolve);
    else server.listen(address.path, resolve);
  });
  const port = typeof address === 'string' ? (server.address() as { port: number }).port : 0;
  return { server, port, connections: () => connections };
}

function closeServer(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

function ip(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('ip', args, { timeout: 10_000, encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(new Error(`ip ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

/** Which of the lab's namespaces are still in `ip netns list`. */
async function leftovers(lab: Pick<LanLab, 'switchNamespace' | 'machines'>): Promise<string[]> {
  const namespaces = (JSON.parse((await ip(['-j', 'netns', 'list'])).trim() || '[]') as { name: string }[]).map((n) => n.name);
  return [lab.switchNamespace, ...lab.machines.map((m) => m.namespace)].filter((n) => namespaces.includes(n));
}

/** The root namespace's links and addresses, as browsers watching them see them. */
async function rootNetwork(): Promise<string> {
  const links = JSON.parse(await ip(['-j', 'address', 'show'])) as { ifname: string; operstate: string; addr_info: { local: string }[] }[];
  return JSON.stringify(links.map(({ ifname, operstate, addr_info }) => ({ ifname, operstate, addresses: addr_info.map((a) => a.local) })));
}

/** Whether a pid is gone (a zombie counts as gone: it runs nothing and holds no namespace). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a LAN lab of three machines', () => {
  let lab: LanLab;
  let rootBefore = '';
  const servers: Server[] = [];

  beforeAll(async () => {
    rootBefore = await rootNetwork();
    const started = Date.now();
    lab = await startLanLab(3);
    console.log(`LAN lab ${lab.id} on ${lab.subnet} started in ${Date.now() - started} ms`);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(servers.map(closeServer));
    await lab?.close();
  });

  it('puts machines m1, m2, m3 at .11, .12, .13 of a link-local /24 whose .1 is the gateway', async () => {
    const net = '169.254.77';
    expect(lab.subnet).toBe(`${net}.0/24`);
    expect(lab.gateway).toBe(`${net}.1`);
    expect(lab.machines.map(({ name, address }) => ({ name, address }))).toEqual([
      { name: 'm1', address: `${net}.11` },
      { name: 'm2', address: `${net}.12` },
      { name: 'm3', address: `${net}.13` },
    ]);
    for (const machine of lab.machines) {
      const [eth0] = JSON.parse(await ip(['-n', machine.namespace, '-j', '-4', 'address', 'show', 'dev', 'eth0'])) as {
        operstate: string;
        addr_info: { local: string; prefixlen: number }[];
      }[];
      expect(eth0).toMatchObject({ operstate: 'UP', addr_info: [{ local: machine.address, prefixlen: 24 }] });
    }
    const [bridge] = JSON.parse(await ip(['-n', lab.switchNamespace, '-j', '-4', 'address', 'show', 'dev', lab.bridge])) as {
      addr_info: { local: string }[];
    }[];
    expect(bridge!.addr_info.map((a) => a.local)).toEqual([lab.gateway]);
  });

  it('carries a UDP multicast datagram from m1 to m2 and m3, with the interface named and without', async () => {
    const m1 = lab.machine('m1');
    const receivers = ['m2', 'm3'].map((name) => {
      const child = lab.spawn(name, process.execPath, [
        '-e',
        SCRIPTS.multicastReceiver,
        GROUP,
        lab.machine(name).address,
        String(MULTICAST_PORT),
      ]);
      return { name, output: lines(child) };
    });
    await Promise.all(receivers.map(({ name, output }) => output.wait((l) => l === 'ready', 5_000, `${name} joined ${GROUP}`)));

    for (const how of ['interface', 'route']) {
      const message = `hello by ${how} from m1`;
      const sent = await lab.run(
        'm1',
        process.execPath,
        ['-e', SCRIPTS.multicastSender, GROUP, m1.address, String(MULTICAST_PORT), message, how],
        {
          timeoutMs: 5_000,
        },
      );
      expect(sent).toMatchObject({ code: 0, stderr: '' });
      for (const { name, output } of receivers) {
        const line = await output.wait((l) => l.includes(message), 5_000, `the datagram "${message}" on ${name}`);
        expect(JSON.parse(line)).toEqual({ message, from: m1.address });
      }
    }
  });

  it('connects m2 to a TCP server on m3', async () => {
    const port = await tcpServer(lab, 'm3', 'hello from m3');
    expect(await connect(lab, 'm2', lab.machine('m3').address, port)).toEqual({ ok: true, data: 'hello from m3' });
  });

  it('reaches a Unix socket of the root namespace from m1 on the gateway port that exposes it', async () => {
    const socket = { path: path.join(tmpdir(), `lan-lab-spec-${process.pid}.sock`) };
    const { server, connections } = await rootServer(socket, 'hello from the root namespace');
    servers.push(server);
    const port = await lab.expose(socket.path);
    expect(await connect(lab, 'm1', lab.gateway, port)).toEqual({ ok: true, data: 'hello from the root namespace' });
    expect(await connect(lab, 'm2', lab.gateway, port)).toEqual({ ok: true, data: 'hello from the root namespace' });
    expect(connections()).toBe(2);
  });

  it('reaches a server on m3 from this namespace through the loopback port `reach` gives', async () => {
    const port = await tcpServer(lab, 'm3', 'hello from m3');
    const reached = await lab.reach('m3', port);
    const greet = (loopbackPort: number) =>
      new Promise<string>((resolve, reject) => {
        let data = '';
        const socket = createConnection(loopbackPort, '127.0.0.1');
        socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
        socket.once('end', () => resolve(data));
        socket.once('error', reject);
      });
    expect(await greet(reached)).toBe('hello from m3');
    // Asked again for the same port (a host started again there): a second way in, the first still open.
    const again = await lab.reach('m3', port);
    expect(again).not.toBe(reached);
    expect(await Promise.all([greet(reached), greet(again)])).toEqual(['hello from m3', 'hello from m3']);
  });

  it('routes nothing out: no default route, not the root namespace’s 127.0.0.1 nor its other addresses', async () => {
    for (const machine of lab.machines) {
      const routes = JSON.parse((await lab.run(machine.name, 'ip', ['-j', 'route', 'show'])).stdout) as { dst: string; dev: string }[];
      expect(routes.map(({ dst, dev }) => ({ dst, dev }))).toEqual([
        { dst: lab.subnet, dev: 'eth0' },
        { dst: '224.0.0.0/4', dev: 'eth0' },
      ]);
      for (const family of ['-4', '-6']) {
        const all = await lab.run(machine.name, 'ip', [family, 'route', 'show', 'table', 'all']);
        expect(all).toMatchObject({ code: 0, stderr: '' });
        expect(all.stdout).not.toMatch(/^default/m);
      }
    }

    // One server on every address of the root namespace: no machine reaches it, the gateway neither.
    const loopback = await rootServer('127.0.0.1', 'hello from loopback');
    const everywhere = await rootServer('0.0.0.0', 'hello from everywhere');
    servers.push(loopback.server, everywhere.server);
    expect(await connect(lab, 'm1', '127.0.0.1', loopback.port)).toEqual({ ok: false, code: 'ECONNREFUSED' });
    expect(await connect(lab, 'm1', lab.gateway, everywhere.port)).toEqual({ ok: false, code: 'ECONNREFUSED' });
    const rootAddresses = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))
      .map((a) => a!.address);
    for (const address of [...rootAddresses, '1.1.1.1']) {
      expect({ address, ...(await connect(lab, 'm1', address, everywhere.port)) }).toEqual({ address, ok: false, code: 'ENETUNREACH' });
    }
    expect(loopback.connections()).toBe(0);
    expect(everywhere.connections()).toBe(0);
  });

  it('unplug takes m3 off the LAN for m2, plug brings it back', async () => {
    const m3 = lab.machine('m3').address;
    const port = await tcpServer(lab, 'm3', 'm3 is here');
    expect(await connect(lab, 'm2', m3, port)).toEqual({ ok: true, data: 'm3 is here' });

    await lab.unplug('m3');
    const cut = await connect(lab, 'm2', m3, port, 1_500);
    expect(cut.ok).toBe(false);
    expect(['TIMEOUT', 'EHOSTUNREACH']).toContain((cut as { code: string }).code);

    await lab.plug('m3');
    expect(await connect(lab, 'm2', m3, port)).toEqual({ ok: true, data: 'm3 is here' });
  });

  it('leaves the root namespace’s links and addresses as they were: made, used, unplugged and plugged', async () => {
    expect(await rootNetwork()).toBe(rootBefore);
  });

  it('close() ends every process it spawned (SIGKILL for one ignoring SIGTERM) and leaves no namespace', async () => {
    const stubborn = lab.spawn('m1', process.execPath, ['-e', SCRIPTS.stubborn]);
    const polite = lab.spawn('m2', process.execPath, ['-e', 'setInterval(() => undefined, 1000); console.log("ready")']);
    await lines(stubborn).wait((l) => l === 'ready', 5_000, 'the stubborn process ready');
    await lines(polite).wait((l) => l === 'ready', 5_000, 'the polite process ready');
    expect(await leftovers(lab)).toHaveLength(4);

    const started = Date.now();
    await lab.close();
    console.log(`LAN lab ${lab.id} closed in ${Date.now() - started} ms`);

    expect(stubborn.signalCode).toBe('SIGKILL');
    expect(polite.signalCode).toBe('SIGTERM');
    expect(await leftovers(lab)).toEqual([]);
    expect(await rootNetwork()).toBe(rootBefore);
    expect(() => lab.spawn('m1', 'true', [])).toThrow(/closed/);
  });
});

describe('a LAN lab its process does not close', () => {
  const repo = path.resolve(__dirname, '../../..');
  /** Starts a lab of two machines in another Node process, with a process on m1, and prints its names. */
  function owner(ending: 'exits' | 'stays') {
    const code = `
      const { startLanLab } = require(${JSON.stringify(path.join(__dirname, 'lan-lab.ts'))});
      startLanLab(2).then((lab) => {
        const child = lab.spawn('m1', process.execPath, ['-e', 'setInterval(() => undefined, 1000)']);
        child.once('spawn', () => {
          console.log(JSON.stringify({ switchNamespace: lab.switchNamespace, machines: lab.machines, pid: child.pid }));
          if (${JSON.stringify(ending)} === 'exits') process.exit(0);
        });
      });
    `;
    const child = spawn(process.execPath, ['-r', '@swc-node/register', '-e', code], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = lines(child);
    return {
      child,
      async lab() {
        return JSON.parse(await output.wait((l) => l.startsWith('{'), 20_000, 'the lab started')) as Pick<
          LanLab,
          'switchNamespace' | 'machines'
        > & {
          pid: number;
        };
      },
    };
  }

  it('is removed with its processes when that process exits without close()', async () => {
    const { child, lab } = owner('exits');
    const started = await lab();
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    expect(child.exitCode).toBe(0);
    expect(await leftovers(started)).toEqual([]);
    await until(() => gone(started.pid), 5_000, `process ${started.pid} in m1 gone`);
  }, 30_000);

  it('is swept, with its processes, by the next startLanLab once that process was killed', async () => {
    const { child, lab } = owner('stays');
    const started = await lab();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await leftovers(started)).toHaveLength(3);
    expect(gone(started.pid)).toBe(false);

    const next = await startLanLab(1);
    try {
      expect(await leftovers(started)).toEqual([]);
      await until(() => gone(started.pid), 5_000, `process ${started.pid} in m1 gone`);
    } finally {
      await next.close();
    }
  }, 30_000);
});

describe('startLanLab without what it needs', () => {
  afterEach(() => jest.restoreAllMocks());

  it('throws saying root is needed', async () => {
    jest.spyOn(process, 'getuid').mockReturnValue(1000);
    await expect(startLanLab(1)).rejects.toThrow(
      'LAN lab needs root (uid 0) to create network namespaces, veth pairs and a bridge; this process runs as uid 1000',
    );
  });

  it('throws saying `ip` is needed', async () => {
    await expect(startLanLab(1, { ip: '/nonexistent/ip' })).rejects.toThrow(
      /LAN lab needs the `ip` command \(iproute2\): \/nonexistent\/ip is not an executable/,
    );
  });
});

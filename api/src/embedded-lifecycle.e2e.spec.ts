import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, spawnApi } from '@meshwork/testkit/api/api-process.cjs';
import { embeddedEnv } from '@meshwork/testkit/infra';

/** What a shutdown must never print. */
const SHUTDOWN_FAILURES = /Release called on client|uncaught|unhandled|unclean shutdown|"level":(50|60)/i;

/**
 * The built api in embedded mode (no DATABASE_URL), as processes: who owns the embedded
 * PostgreSQL of a data folder, what a kill -9 leaves behind, and how it stops.
 */
describe('the embedded PostgreSQL and its owner, across crashes and shutdowns', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-lifecycle-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as its own user when we are root
  let postgresPort = 0;
  const running = new Set<ChildProcess>();

  beforeAll(async () => {
    postgresPort = await freePort();
  });

  afterAll(async () => {
    for (const api of running) api.kill('SIGKILL');
    // Whatever a failed test left running goes with the folder.
    const pid = postmasterPid();
    if (pid) process.kill(pid, 'SIGQUIT');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  interface Api {
    process: ChildProcess;
    base: string;
    output: () => string;
    exit: Promise<number | null>;
  }

  /** Starts the built api on the shared data folder and waits until it answers (the first start runs initdb). */
  async function startApi(): Promise<Api> {
    const port = await freePort();
    const env = embeddedEnv({
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(postgresPort),
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      LOG_LEVEL: 'info',
    });
    const child = spawnApi(env, ['ignore', 'pipe', 'pipe']);
    running.add(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => (running.delete(child), resolve(code))));
    const base = `http://127.0.0.1:${port}/api/v1`;
    for (
      const deadline = Date.now() + 120_000;
      !(await fetch(`${base}/health/ping`).then(
        (r) => r.ok,
        () => false,
      ));
    ) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the api did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { process: child, base, output: () => output, exit };
  }

  /** A new customer's authenticated request: the api now holds its LISTEN connection for signed-in users. */
  async function signIn(api: Api): Promise<void> {
    const name = randomUUID().slice(0, 8);
    const password = 'Lifecycle1Password';
    const registered = await fetch(`${api.base}/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${name}@example.com`, username: `user_${name}`, password, password_confirm: password }),
    });
    expect(registered.status).toBe(201);
    const { tokens } = (await registered.json()) as { tokens: { access: string } };
    const profile = await fetch(`${api.base}/profile/`, { headers: { Authorization: `Bearer ${tokens.access}` } });
    expect(profile.status).toBe(200);
  }

  function postmasterPid(): number | null {
    try {
      return Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  }

  const postgresAnswers = async (): Promise<boolean> => {
    const client = new Client({ connectionString: `postgres://meshwork:meshwork-embedded@127.0.0.1:${postgresPort}/meshwork` });
    return client.connect().then(
      () => client.end().then(() => true),
      () => false,
    );
  };

  const portOpen = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });

  /** Running and not a zombie. */
  const processRuns = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
    } catch {
      return false;
    }
  };

  /** Stopped: nothing listens on its port, its postmaster is gone, and so is its lock file. */
  async function expectPostgresStopped(postmaster: number): Promise<void> {
    expect(await portOpen(postgresPort)).toBe(false);
    expect(processRuns(postmaster)).toBe(false);
    expect(postmasterPid()).toBeNull();
  }

  it('a kill -9 leaves PostgreSQL running; the next api takes it over and stops it on SIGTERM', async () => {
    const first = await startApi();
    await signIn(first);
    const postmaster = postmasterPid()!;
    expect(processRuns(postmaster)).toBe(true);

    first.process.kill('SIGKILL');
    await first.exit;
    expect(await postgresAnswers()).toBe(true);

    const second = await startApi();
    expect(postmasterPid()).toBe(postmaster); // the same server, not a restarted one
    await signIn(second);
    second.process.kill('SIGTERM');
    expect(await second.exit).toBe(0);
    await expectPostgresStopped(postmaster);
    expect(second.output()).not.toMatch(SHUTDOWN_FAILURES);
    expect(second.output()).toContain('took over the embedded PostgreSQL');
  }, 180_000);

  it('stops cleanly every time: each client closed once, PostgreSQL stopped, exit 0', async () => {
    // SIGINT twice in a row is Ctrl-C under `npm start`: the terminal and the launcher both send it.
    for (const signals of [['SIGTERM'], ['SIGTERM'], ['SIGINT', 'SIGINT'], ['SIGTERM'], ['SIGHUP']] as NodeJS.Signals[][]) {
      const api = await startApi();
      await signIn(api);
      const postmaster = postmasterPid()!;
      for (const signal of signals) api.process.kill(signal);
      expect({ signals, exit: await api.exit }).toEqual({ signals, exit: 0 });
      expect(api.output()).not.toMatch(SHUTDOWN_FAILURES);
      await expectPostgresStopped(postmaster);
    }
  }, 180_000);

  it('a command run without the api’s EMBEDDED_POSTGRES_PORT finds the folder’s running PostgreSQL at once, and says which port', async () => {
    const api = await startApi();
    const elsewhere = await freePort(); // what the command is told: not where the folder's server listens
    const name = randomUUID().slice(0, 8);
    const started = Date.now();
    const command = spawn(
      process.execPath,
      [
        path.join(__dirname, '../../dist/api/src/cli/create-staff.main.js'),
        '--email',
        `staff-${name}@example.com`,
        '--password',
        'Lifecycle1Password',
      ],
      {
        env: embeddedEnv({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(elsewhere), LOG_LEVEL: 'info' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    command.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    command.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => command.once('exit', resolve));
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining(`Staff account staff-${name}@example.com created.`) });
    expect(output).toContain(`runs on port ${postgresPort}, not EMBEDDED_POSTGRES_PORT ${elsewhere}`);
    expect(Date.now() - started).toBeLessThan(20_000); // not the 30 s wait for an answer on the wrong port
    expect(await portOpen(elsewhere)).toBe(false); // no second server was started

    // The account is there for the api the folder's server serves.
    const signedIn = await fetch(`${api.base}/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `staff-${name}@example.com`, password: 'Lifecycle1Password' }),
    });
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { user: { is_staff: boolean } }).user.is_staff).toBe(true);
    api.process.kill('SIGTERM');
    expect(await api.exit).toBe(0);
  }, 180_000);

  it('a second api shares the running PostgreSQL, and the owner leaving hands it over instead of stopping it', async () => {
    const owner = await startApi();
    const sharer = await startApi();
    const postmaster = postmasterPid()!;

    owner.process.kill('SIGTERM');
    expect(await owner.exit).toBe(0);
    expect(await postgresAnswers()).toBe(true);
    await signIn(sharer); // still served

    sharer.process.kill('SIGTERM');
    expect(await sharer.exit).toBe(0);
    await expectPostgresStopped(postmaster);
    expect(owner.output() + sharer.output()).not.toMatch(SHUTDOWN_FAILURES);
    expect(sharer.output()).toContain('sharing the embedded PostgreSQL');
    expect(owner.output()).toContain('left the embedded PostgreSQL running for another Meshwork process');
  }, 180_000);
});

/**
 * Issue 30, section 2: the built runtime (`desktop/dist/desktop/src/runtime/main.js`, as `npm test`
 * and `npm run host` build it) started as a customer starts it: no flags, a fresh home
 * directory, the site named by the environment or by the release it came in.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(__dirname, '../../..');
/** The Node the release carries (the system's may be older). */
const NODE = join(root, 'node_modules/.bin/node');
const MAIN = join(root, 'desktop/dist/desktop/src/runtime/main.js');
const VERSION = (JSON.parse(readFileSync(join(root, 'desktop/package.json'), 'utf8')) as { version: string }).version;
/** A signed-out host never calls the api, so none needs to answer. */
const NO_API = 'http://127.0.0.1:9';
/** Every port the host opens, moved off its fixed defaults: other tests run hosts on this machine at the same time. */
const SPARE_PORTS = {
  MESHWORK_UI_PORT: '0',
  MESHWORK_API_ADDRESS: '127.0.0.1',
  MESHWORK_API_PORT: '0',
  MESHWORK_LAN_ADDRESS: '127.0.0.1',
  MESHWORK_LAN_PORT: '0',
};
const UI_LINE = /^meshwork-host ui (http:\/\/127\.0\.0\.1:(\d+)\/\?code=[\w-]{43})$/m;

interface Started {
  child: ChildProcess;
  output: () => string;
  /** The first match of `pattern` in what it printed, once it has. */
  printed: (pattern: RegExp) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

describe('meshwork-host, started as a customer starts it', () => {
  let work: string;
  const running: Started[] = [];
  const servers: Server[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'meshwork-main-'));
  });
  afterEach(async () => {
    for (const { child, exited } of running.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  let homes = 0;
  async function freshHome(): Promise<string> {
    const home = join(work, `home-${homes++}`);
    await mkdir(home);
    return home;
  }

  function start(args: string[], env: NodeJS.ProcessEnv, main = MAIN): Started {
    const child = spawn(NODE, [main, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let closed = false;
    const waiting = new Set<() => void>();
    const heard = (text: string) => {
      output += text;
      for (const wake of waiting) wake();
    };
    createInterface({ input: child.stdout! }).on('line', (line) => heard(`${line}\n`));
    child.stderr!.on('data', (chunk: Buffer) => heard(chunk.toString()));
    // 'close' comes once its output has all been read.
    const exited = new Promise<number | null>((done) =>
      child.once('close', (code) => {
        closed = true;
        heard('');
        done(code);
      }),
    );
    const printed = (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((done, fail) => {
        const look = () => {
          const match = pattern.exec(output);
          if (match || closed) waiting.delete(look);
          if (match) done(match);
          else if (closed) fail(new Error(`exited (${child.exitCode}) without printing ${pattern}:\n${output}`));
        };
        waiting.add(look);
        look();
      });
    const started = { child, output: () => output, printed, exited };
    running.push(started);
    return started;
  }

  /** Runs to its end: exit code and everything it printed. */
  async function run(args: string[], env: NodeJS.ProcessEnv, main = MAIN): Promise<{ code: number | null; output: string }> {
    const started = start(args, env, main);
    const code = await started.exited;
    return { code, output: started.output() };
  }

  const trade = (url: string) => fetch(url, { redirect: 'manual' });
  const homeEnv = (home: string, more: NodeJS.ProcessEnv = {}) => ({ HOME: home, PATH: process.env.PATH, ...SPARE_PORTS, ...more });

  it('answers --help with every flag, its default and its variable, --version with its version, and an unknown flag with a pointer to --help', async () => {
    const home = await freshHome();
    const help = await run(['--help'], { HOME: home });
    expect(help.code).toBe(0);
    expect(help.output).toContain('Usage: meshwork-host [options]');
    expect(help.output).toContain(`default: ${home}/.local/share/meshwork; variable: MESHWORK_DATA_DIR`);
    expect(help.output).toContain('default: none: this copy was not downloaded from a site, so pass one; variable: MESHWORK_API');
    expect(help.output).toContain('default: 8434; variable: MESHWORK_UI_PORT');
    expect(help.output).toMatch(/--no-open/);

    expect(await run(['--version'], { HOME: home })).toEqual({ code: 0, output: `meshwork-host ${VERSION}\n` });

    const unknown = await run(['--frobnicate'], { HOME: home });
    expect(unknown).toEqual({ code: 1, output: 'Unknown option --frobnicate.\nRun meshwork-host --help to see the options.\n' });
    const noSite = await run(['--no-open'], { HOME: home });
    expect(noSite.code).toBe(1);
    expect(noSite.output).toContain(
      "Meshwork does not know which site to sign in to: pass --api <your Meshwork site's address> (or set MESHWORK_API).",
    );
  });

  it('starts with no flags in the platform’s data directory, and a second start opens the running one’s window and exits 0', async () => {
    const home = await freshHome();
    const env = homeEnv(home, { MESHWORK_API: NO_API });
    const first = start([], env);
    const [, url, port] = await first.printed(UI_LINE);
    // No desktop here (no DISPLAY): it says so, and how to open the window.
    await first.printed(/no browser could be started: open the meshwork-host ui address above in a browser/);

    const dataDir = join(home, '.local/share/meshwork');
    expect(first.output()).toContain(`Meshwork is running for ${dataDir}`);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dataDir, 'instance.json'))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dataDir, 'instance.json'), 'utf8'))).toMatchObject({ pid: first.child.pid, port: Number(port) });
    const traded = await trade(url!);
    expect(traded.status).toBe(303);
    const cookie = traded.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`http://127.0.0.1:${port}/host/state`, { headers: { Cookie: cookie } })).status).toBe(200);

    const second = await run([], env);
    expect(second.code).toBe(0);
    const [, secondUrl, secondPort] = UI_LINE.exec(second.output)!;
    expect(secondPort).toBe(port);
    expect(second.output).toContain(`Meshwork is already running for ${dataDir} (process ${first.child.pid})`);
    // The running instance's code: it works once.
    expect((await trade(secondUrl!)).status).toBe(303);
    expect((await trade(secondUrl!)).status).toBe(401);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await expect(stat(join(dataDir, 'instance.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over an instance file whose process is gone, or does not answer', async () => {
    const dataDir = join(work, 'stale');
    await mkdir(dataDir, { mode: 0o700 });
    const gone = spawn(NODE, ['-e', '']);
    await new Promise((done) => gone.once('exit', done));
    // A live process (this test) on a port that takes connections, reads and never answers.
    const silent = createServer((socket) => socket.resume());
    servers.push(silent);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const silentPort = (silent.address() as { port: number }).port;
    for (const [pid, port] of [
      [gone.pid!, silentPort],
      [process.pid, silentPort],
    ]) {
      const record = { pid, port, secret: 's'.repeat(43), started_at: new Date().toISOString() };
      await writeFile(join(dataDir, 'instance.json'), JSON.stringify(record), { mode: 0o600 });
      const host = start(['--data-dir', dataDir, '--no-open'], homeEnv(await freshHome(), { MESHWORK_API: NO_API }));
      await host.printed(UI_LINE);
      expect(JSON.parse(await readFile(join(dataDir, 'instance.json'), 'utf8'))).toMatchObject({ pid: host.child.pid });
      host.child.kill('SIGTERM');
      expect(await host.exited).toBe(0);
    }
  });

  it('names --ui-port when its window’s port is taken by another program', async () => {
    const other = createServer();
    servers.push(other);
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const port = (other.address() as { port: number }).port;
    const dataDir = join(await freshHome(), 'data');
    const taken = await run(['--data-dir', dataDir, '--ui-port', String(port), '--no-open'], homeEnv(dataDir, { MESHWORK_API: NO_API }));
    expect(taken.code).toBe(1);
    expect(taken.output).toContain(
      `Port ${port} (the window) is already in use by another program. Pass --ui-port <another port> (or set MESHWORK_UI_PORT); 0 takes any free port.`,
    );
    // It gave the data directory up: the next start is not sent to a dead instance.
    await expect(stat(join(dataDir, 'instance.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  /** The built app beside a release.json, as the site's download lays it out. */
  async function installedCopy(release: string): Promise<string> {
    const app = await mkdtemp(join(work, 'app-'));
    await cp(join(root, 'desktop/dist'), join(app, 'dist'), { recursive: true });
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: '@meshwork/desktop', version: VERSION }));
    await writeFile(join(app, 'release.json'), release);
    await symlink(join(root, 'node_modules'), join(app, 'node_modules'));
    await symlink(join(root, 'desktop/ui'), join(app, 'ui'));
    return join(app, 'dist/desktop/src/runtime/main.js');
  }

  it('signs in to the site its release names, and refuses a damaged release.json, --api or not, with words that say what to do', async () => {
    const asked: string[] = [];
    const site = createHttpServer((request: IncomingMessage, response) => {
      asked.push(`${request.method} ${request.url}`);
      response.writeHead(503).end();
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    try {
      const main = await installedCopy(JSON.stringify({ origin, version: VERSION, platform: 'linux' }));
      const home = await freshHome();
      expect((await run(['--help'], { HOME: home }, main)).output).toContain(`default: ${origin}; variable: MESHWORK_API`);
      const host = start(['--no-open'], homeEnv(home), main);
      const [, url, port] = await host.printed(UI_LINE);
      const cookie = (await trade(url!)).headers.get('set-cookie')!.split(';')[0]!;
      await fetch(`http://127.0.0.1:${port}/host/sign-in/device`, { method: 'POST', headers: { Cookie: cookie } });
      expect(asked).toContain('POST /api/v1/devices/code/');
    } finally {
      site.close();
    }

    const damaged = await installedCopy('{"origin": "https://meshwork.example/../evil", "version": "0.1.0"');
    const refused = await run(['--no-open'], homeEnv(await freshHome()), damaged);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/release\.json is damaged \(not JSON\): install Meshwork again from your site\./);
    // Not even with an expert's --api: the file holds the keys the app trusts, so a damaged one is never skipped.
    const expert = await run(['--no-open', '--api', NO_API], homeEnv(await freshHome()), damaged);
    expect(expert.code).toBe(1);
    expect(expert.output).toMatch(/release\.json is damaged \(not JSON\)/);
  });

  it('opens its window in the default browser with a code of its own, at start and when started again', async () => {
    const bin = await mkdtemp(join(work, 'bin-'));
    const opened = join(bin, 'opened');
    // The desktop's opener, as xdg-utils installs it: it hands the address to the browser and exits.
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" >> '${opened}'\n`);
    await chmod(join(bin, 'xdg-open'), 0o755);
    const env = homeEnv(await freshHome(), { MESHWORK_API: NO_API, DISPLAY: ':0', PATH: `${bin}:${process.env.PATH}` });
    const host = start([], env);
    const [, printedUrl] = await host.printed(UI_LINE);
    await host.printed(/its window is open in your browser/);
    const second = await run([], env);
    expect(second.code).toBe(0);
    expect(second.output).toMatch(/Meshwork is already running for .* \(process \d+\): its window is open in your browser\./);
    const urls = (await readFile(opened, 'utf8')).trim().split('\n');
    expect(urls).toHaveLength(2);
    for (const url of urls) {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?code=[\w-]{43}$/);
      expect(url).not.toBe(printedUrl);
      expect((await trade(url)).status).toBe(303);
    }
    // A desktop whose opener fails: the address is printed instead.
    await writeFile(join(bin, 'xdg-open'), '#!/bin/sh\nexit 3\n');
    const failed = await run([], env);
    expect(failed.output).toContain('but no browser could be started: open the meshwork-host ui address above in a browser');
  });
});

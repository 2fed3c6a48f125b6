import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DesktopAppInfo } from '@meshwork/contracts';
import { freePort } from '@meshwork/testkit/browser';
import { eventually } from '@meshwork/testkit/eventually';
import { embeddedEnv } from '@meshwork/testkit/infra';

const root = path.resolve(__dirname, '../..');

/** `npm start` as a user runs it, with none of the outside systems configured. */
describe('npm start, embedded default', () => {
  let child: ChildProcess;
  let output = '';
  let base = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-e2e-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as its own user when we are root

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = embeddedEnv({ PORT: String(port), DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(await freePort()) });
    child = spawn(process.execPath, [path.join(root, 'infra/scripts/start.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // The first start builds the site, the console and the desktop app's downloads, and initialises PostgreSQL.
    const deadline = Date.now() + 480_000;
    while (!output.includes('Meshwork is running at')) {
      if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 540_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the URL and serves the customer site at /', async () => {
    expect(output).toContain(`Meshwork is running at ${base}/`);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('serves the staff console at /admin/, deep links included', async () => {
    for (const url of [`${base}/admin/`, `${base}/admin/users`]) {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<script[^>]+src="\/admin\/assets\//);
    }
  });

  it('reports every component by name from the embedded stand-ins', async () => {
    const response = await fetch(`${base}/api/v1/health/system-status/`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; components: Record<string, { status: string; mode: string }> };
    expect(body.status).toBe('ok');
    expect(body.components).toMatchObject({
      postgres: { status: 'up', mode: 'embedded' },
      event_store: { status: 'up' },
      projections: { status: 'up' },
      kafka: { status: 'off' },
      object_storage: { status: 'up', mode: 'local-disk' },
      payments: { status: 'up', mode: 'simulated' },
      mail: { status: 'up', mode: 'outbox' },
    });
  });

  it('renders the public pages again with its own plans, into its data folder: the build other installations serve is left as it is', async () => {
    const ours = path.join(dataDir, 'site', 'pricing', 'index.html');
    await eventually(async () => fs.existsSync(ours), 'npm start’s pages in its data folder');
    // Rendered with the plans (their data travels with the page); the build's page has none.
    expect(await (await fetch(`${base}/pricing`)).text()).toContain('id="prerendered-state"');
    expect(fs.readFileSync(path.join(root, 'web', 'dist', 'pricing', 'index.html'), 'utf8')).not.toContain('id="prerendered-state"');
  });

  it('serves the desktop app it built for its own origin, for each platform, on a fresh installation', async () => {
    const info = await fetch(`${base}/api/v1/downloads/desktop-app-info/?platform=linux`);
    // npm start says why when it could not build them: show it.
    if (info.status !== 200) throw new Error(`desktop-app-info answered ${info.status}; npm start printed:\n${output}`);
    const body = (await info.json()) as DesktopAppInfo;
    // `npm test` installs NSIS, so the Windows installer is built too (`npm start` without it says so and skips it).
    expect(body.downloads.map((d) => `${d.platform} ${d.file_name}`)).toEqual([
      `windows Meshwork-Desktop-v${body.version}.exe`,
      `linux Meshwork-Desktop-v${body.version}.deb`,
      `linux Meshwork-Desktop-v${body.version}.tar.gz`,
    ]);
    expect(body.download_url).toBe(body.downloads.find((d) => d.file_name.endsWith('.deb'))!.download_url);
    // Built for this site: the app inside names it, so it starts with no flags.
    const index = JSON.parse(fs.readFileSync(path.join(dataDir, 'releases', 'releases.json'), 'utf8')) as { origin: string };
    expect(index.origin).toBe(base);
    const listing = execFileSync('tar', [
      '-xzOf',
      path.join(dataDir, 'releases', `Meshwork-Desktop-v${body.version}.tar.gz`),
      '--wildcards',
      '*/app/release.json',
    ]);
    // And its entitlement keys, the app's root of trust, as the api publishes them.
    const published = (await (await fetch(`${base}/api/v1/devices/keys/`)).json()) as { keys: { kid: string; x: string }[] };
    const release = JSON.parse(listing.toString()) as { keys: { keys: { kid: string; x: string }[] } };
    expect(release).toMatchObject({ origin: base, platform: 'linux', version: body.version });
    expect(release.keys.keys.map((k) => `${k.kid}:${k.x}`)).toEqual(published.keys.map((k) => `${k.kid}:${k.x}`));
  });

  it('stops cleanly on SIGTERM, taking its PostgreSQL with it', async () => {
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.once('exit', r));
    // Our handler alone stops it (the package's own exit hooks no longer race it): exit 0.
    expect(code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});

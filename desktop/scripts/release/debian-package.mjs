// The .deb: the Linux tree under /opt/meshwork, `meshwork` on the PATH, and a desktop entry with
// the site's icon, so the app starts from the desktop's menu. Built with dpkg-deb, owned by root.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './app-tree.mjs';
import { LAUNCHER } from './linux-archive.mjs';
import { run } from './run.mjs';

export const PACKAGE = 'meshwork-desktop';
export const INSTALL_DIR = 'opt/meshwork';

/**
 * Finds the launcher beside itself (../../opt/meshwork), not at a fixed /opt: the same file works
 * installed and unpacked into any root (the tests run it from `dpkg-deb -x` into a temp dir).
 */
const wrapper = [
  '#!/bin/sh',
  '# Meshwork desktop host, installed by the meshwork-desktop package (shell built-ins only).',
  'case "$0" in */*) here="${0%/*}" ;; *) here=/usr/bin ;; esac',
  `exec "$here/../../${INSTALL_DIR}/${LAUNCHER}" "$@"`,
  '',
].join('\n');

const desktopEntry = [
  '[Desktop Entry]',
  'Type=Application',
  'Name=Meshwork',
  'GenericName=Local AI host',
  "Comment=Run your plan's language models on this computer and your network",
  'Exec=/usr/bin/meshwork',
  'Icon=meshwork',
  'Terminal=false',
  'Categories=Network;Utility;',
  'Keywords=AI;LLM;Chat;',
  '',
].join('\n');

/** Installed-Size as dpkg counts it: KiB per file, rounded up, and one per folder. */
function installedKiB(dir) {
  let kib = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    kib += entry.isDirectory() ? 1 : Math.ceil(fs.lstatSync(full).size / 1024);
  }
  return kib;
}

/** Folders 0755, whatever the umask or mkdtemp (0700) made them: dpkg installs the modes it is given. */
function openFolders(dir) {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isDirectory()) fs.chmodSync(path.join(entry.parentPath, entry.name), 0o755);
}

/**
 * Builds `file` from the Linux tree at `tree`, which it moves (not copies) into the package's
 * root under `debRoot`. xz -1, measured on two cores: 51 MB in 7 s, where gzip -6 makes 64 MB in 7 s and
 * xz -6 44 MB in 98 s.
 */
export async function buildDeb({ tree, debRoot, version, origin, file }) {
  const opt = path.join(debRoot, INSTALL_DIR);
  fs.mkdirSync(path.dirname(opt), { recursive: true });
  fs.renameSync(tree, opt);
  const put = (relative, content, mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(debRoot, relative)), { recursive: true });
    fs.writeFileSync(path.join(debRoot, relative), content, { mode });
  };
  put('usr/bin/meshwork', wrapper, 0o755);
  put('usr/share/applications/meshwork.desktop', desktopEntry);
  put('usr/share/icons/hicolor/scalable/apps/meshwork.svg', fs.readFileSync(path.join(root, 'web/public/favicon.svg')));
  openFolders(debRoot);

  const control = [
    `Package: ${PACKAGE}`,
    `Version: ${version}`,
    'Architecture: amd64',
    'Maintainer: Meshwork <support@meshwork.local>',
    `Installed-Size: ${installedKiB(debRoot)}`,
    // The bundled Node and onnxruntime link against these; everything else ships inside.
    'Depends: libc6 (>= 2.28), libstdc++6, libgcc-s1',
    'Section: net',
    'Priority: optional',
    ...(origin ? [`Homepage: ${origin}`] : []),
    'Description: Meshwork desktop host',
    ' Runs the language models of your Meshwork plan on this computer, alone or with your other',
    ' devices as one network, and answers an OpenAI-compatible API on your network.',
    '',
  ].join('\n');
  put('DEBIAN/control', control);
  fs.chmodSync(path.join(debRoot, 'DEBIAN'), 0o755);

  fs.rmSync(file, { force: true });
  await run('dpkg-deb', ['--root-owner-group', '-Zxz', '-z1', '--build', debRoot, file]);
}

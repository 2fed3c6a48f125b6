// Install a Python tool once into a venv of its own in the shared cache:
// <cache>/venv/<name>-<version>, made with the machine's python3 and pip.
//
// WHY a venv per pinned version: the tool's dependencies never touch the system Python, a pin
// change makes a new venv beside the old one (nothing half-upgraded), and every checkout on the
// machine shares it. A stamp file is written last, so an interrupted install is redone.
import fs from 'node:fs';
import path from 'node:path';
import { paths } from './config.mjs';
import { run } from './proc.mjs';

/** Absolute path of the tool's executable `bin` in its venv; installs `pkg==version` first if needed. */
export async function pipInstall(pkg, version, { bin = pkg, logName = `${pkg}-install` } = {}) {
  const venv = path.join(paths.cache, 'venv', `${pkg}-${version}`);
  const exe = path.join(venv, 'bin', bin);
  const stamp = path.join(venv, '.installed');
  if (fs.existsSync(stamp) && fs.existsSync(exe)) return exe;
  fs.rmSync(venv, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(venv), { recursive: true });
  const logFile = paths.log(logName);
  const t = Date.now();
  console.error(`[infra] installing ${pkg} ${version} into ${venv} (first time only)...`);
  await run('python3', ['-m', 'venv', venv], { logFile });
  await run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `${pkg}==${version}`], { logFile });
  fs.writeFileSync(stamp, `${pkg}==${version}\n`);
  console.error(`[infra] installed ${pkg} in ${Math.round((Date.now() - t) / 1000)} s`);
  return exe;
}

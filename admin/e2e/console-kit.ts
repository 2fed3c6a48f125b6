import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What the console's browser tests share beyond startBrowserTest: its build and the export date. */

const root = path.resolve(__dirname, '../..');
const adminDir = path.join(root, 'admin');

/** Newest modification time under a folder. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

/** The app serves admin/dist as it finds it at start: build it first when it is missing or older than its sources. */
export function ensureConsoleBuilt(): void {
  const index = path.join(adminDir, 'dist', 'index.html');
  const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  if (builtAt >= Math.max(newest(path.join(adminDir, 'src')), fs.statSync(path.join(adminDir, 'index.html')).mtimeMs)) return;
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: adminDir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`building the console failed:\n${result.stdout}\n${result.stderr}`);
}

/** Today as the browser names the export file: its local date. */
export function localDate(today = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
}

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { AUDIT_TRAIL_PROJECTION } from '../../api/src/audit/projections/audit-trail.entities';
import { waitForProjection } from '../../api/src/platform/projections/projection-waiter';

/** What the console's browser tests share beyond startBrowserTest: its build, the export date, api calls and the audit trail's catch-up. */

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

/**
 * The app serves admin/dist as it finds it at start: build it first when it is missing or older
 * than its sources, the contracts it bundles included (a new architecture in the package manifest).
 */
export function ensureConsoleBuilt(): void {
  const index = path.join(adminDir, 'dist', 'index.html');
  const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = [newest(path.join(adminDir, 'src')), newest(path.join(root, 'contracts', 'src'))];
  if (builtAt >= Math.max(...sources, fs.statSync(path.join(adminDir, 'index.html')).mtimeMs)) return;
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Jest runs with NODE_ENV=test, which Vite would build into the bundle: React's development build, twice the size.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: adminDir, encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`building the console failed:\n${result.stdout}\n${result.stderr}`);
}

/** Today as the browser names the export file: its local date. */
export function localDate(today = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
}

/** A call to the listening api as `token`'s owner; the answer's status, JSON body (if any) and headers. */
export async function apiCall<T>(base: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** Waits until the audit trail (a projection) holds every event logged so far, so the console shows them. */
export async function auditCaughtUp(pool: Pool): Promise<void> {
  const head = Number((await pool.query<{ max: string }>('SELECT max(position) FROM es_events')).rows[0]!.max);
  if (!(await waitForProjection(pool, AUDIT_TRAIL_PROJECTION, head, 15_000))) throw new Error(`the audit trail did not reach ${head}`);
}

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const root = resolve(__dirname, '../../..');
/** The Node this repository pins: the releases are built with it, whichever Node runs Jest. */
export const pinnedNode = join(root, 'node_modules/node/bin/node');
export const desktopVersion = (JSON.parse(readFileSync(join(root, 'desktop/package.json'), 'utf8')) as { version: string }).version;

const run = promisify(execFile);

export interface ReleasesIndex {
  version: string;
  origin: string | null;
  sources: string;
  files: { platform: 'linux' | 'windows'; file: string; size: number; sha256: string }[];
  skipped: { platform: 'linux' | 'windows'; reason: string }[];
}

/** The runtime and window the releases pack, built first where `npm test` has not built them. */
async function built(): Promise<void> {
  if (existsSync(join(root, 'desktop/dist/desktop/src/runtime/main.js')) && existsSync(join(root, 'desktop/ui/dist/index.html'))) return;
  await run('npm', ['run', 'build', '--silent', '-w', 'contracts'], { cwd: root, timeout: 300_000 });
  await run('npm', ['run', 'build', '--silent', '-w', 'desktop'], { cwd: root, timeout: 300_000 });
}

/** `node desktop/scripts/package.mjs <args>` as a user runs it: its exit code and what it printed. */
export async function packageCommand(
  args: string[],
  { timeout = 240_000, env = process.env }: { timeout?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(pinnedNode, [join(root, 'desktop/scripts/package.mjs'), ...args], { cwd: root, timeout, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string; killed?: boolean };
    if (failed.killed) throw new Error(`package.mjs ${args.join(' ')} ran past ${timeout / 1000} s`);
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Builds the releases of `platform` for `origin` into `out`; answers their index. */
export async function buildReleases(out: string, platform: 'linux' | 'windows', origin: string): Promise<ReleasesIndex> {
  await built();
  const result = await packageCommand(['--out', out, '--platform', platform, '--origin', origin]);
  if (result.code !== 0) throw new Error(`package.mjs failed (${result.code}):\n${result.stdout}${result.stderr}`);
  return JSON.parse(readFileSync(join(out, 'releases.json'), 'utf8')) as ReleasesIndex;
}

/** Runs a program to its end within `timeout`: its exit code and standard output. */
export async function runTool(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeout?: number } = {}) {
  const { stdout } = await run(command, args, { timeout: options.timeout ?? 60_000, env: options.env, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

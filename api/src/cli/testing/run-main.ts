import { spawn } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One of api/src/cli's `*.main.ts` commands, from source, on `databaseUrl`: what its `npm run ...` script runs. */
export function runMain(main: string, args: string[], databaseUrl: string): Promise<CliResult> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', path.join(__dirname, '..', main), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

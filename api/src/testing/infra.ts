import { execFileSync } from 'node:child_process';
import path from 'node:path';

const cli = path.resolve(__dirname, '../../../infra/scripts/infra.mjs');

/**
 * Stops or starts one loopback server from inside a test (the infra API is ESM; Jest runs
 * CommonJS, so it goes through the CLI). Resolves once the server is down, or answering.
 */
export function infra(action: 'stop' | 'start', component: 'postgres' | 'kafka' | 'minio' | 'stripe' | 'mail'): void {
  execFileSync(process.execPath, [cli, action, component], { stdio: 'inherit', env: process.env });
}

/** The variable a test needs, or a failure saying how to get it: never a silent skip. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set. Run the tests with \`npm test\`, which starts the servers on loopback (infra/).`);
  return value;
}

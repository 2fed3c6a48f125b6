import { execFileSync } from 'node:child_process';
import path from 'node:path';

const cli = path.resolve(__dirname, '../../infra/scripts/infra.mjs');

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

/** The settings that switch on an outside system (full mode); without them the api runs embedded. */
const OUTSIDE_SYSTEMS = [
  'DATABASE_URL',
  'KAFKA_BROKERS',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'STRIPE_SECRET_KEY',
  'STRIPE_API_BASE',
  'SMTP_URL',
];

/** This process's environment with `settings`, minus every outside system: `npm start`'s embedded default. */
export function embeddedEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings };
  for (const name of OUTSIDE_SYSTEMS) delete env[name];
  return env;
}

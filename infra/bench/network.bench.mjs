#!/usr/bin/env node
// LAN network benchmark: `npm run bench:network` (builds the contracts and the desktop first).
//
// Brings infra's servers up and the real model into the cache, then runs network/run.ts (the
// desktop's TypeScript test kit: the api in process, hosts in Linux network namespaces on a
// link-local bridge). Needs root for the namespaces. See network/run.ts for what it measures.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { env, up } from '../lib/index.mjs';
import { smollm2Gguf } from '../lib/model.mjs';

await up();
const gguf = await smollm2Gguf();
const root = path.resolve(import.meta.dirname, '../..');
const run = spawnSync(process.execPath, ['-r', '@swc-node/register', 'infra/bench/network/run.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...env(), MESHWORK_SMOLLM2_GGUF: gguf },
});
process.exit(run.status ?? 1);

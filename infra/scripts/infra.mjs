#!/usr/bin/env node
// CLI over infra/lib:  node infra/scripts/infra.mjs <command> [name...]
//
//   up     [name...]  install if needed, start, wait until answering (default: all)
//   down   [name...]  stop what infra started
//   status [name...]  one line per component; --json for machine output
//   start  name...    same as up (reads better in test scripts)
//   stop   name...    stop; --kill sends SIGKILL (crash simulation)
//   env               print `export K=V` lines:  eval "$(node infra/scripts/infra.mjs env)"
//   reset  [name...]  stop and DELETE the runtime data under .infra (not the cache)
//   model [gemma3]    fetch the engine's real model (SmolLM2, or Gemma 3 270M) once (cached) and print its path
//
// Names: postgres kafka minio stripe mail.  Exit code 1 on any failure.
import fs from 'node:fs';
import { down, env, names, paths, status, stop, up, writeEnvFile } from '../lib/index.mjs';
import { gemma3Gguf, gemma3Path, smollm2Gguf, smollm2Path } from '../lib/model.mjs';
import { installedNodeLlamaCpp } from '../lib/llama-cpp.mjs';

// kafkajs 2.2.4 trips a Node >= 24 warning (negative setTimeout) that is harmless.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (w, ...rest) =>
  String(w?.name ?? rest[0]?.type ?? rest[0]).includes('TimeoutNegativeWarning') ? undefined : emitWarning(w, ...rest);

const [cmd = 'status', ...rest] = process.argv.slice(2);
const flags = new Set(rest.filter((a) => a.startsWith('--')));
const list = rest.filter((a) => !a.startsWith('--'));
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;

function printStarted(r) {
  if (r instanceof Error) return console.log(`${r.component.padEnd(9)} FAILED (details below)`);
  const what = r.state === 'external' ? `external (${r.reason})` : r.started ? `started pid ${r.pid}` : `already running pid ${r.pid}`;
  console.log(`${r.name.padEnd(9)} ${what}  ${secs(r.ms)}`);
}

async function printStatus() {
  const rows = await status(list);
  if (flags.has('--json')) return console.log(JSON.stringify(rows, null, 2));
  for (const r of rows) {
    const pid = r.pid ? `pid ${r.pid}` : '';
    const ready = r.state === 'running' && !r.ready ? ' (NOT answering)' : '';
    const ports = r.ports.map((p) => `127.0.0.1:${p}`).join(',');
    console.log(
      `${r.name.padEnd(9)} ${r.state.padEnd(8)}${ready} ${ports.padEnd(32)} ${pid.padEnd(10)} ${r.state === 'external' ? r.reason : ''}`.trimEnd(),
    );
  }
}

const t = Date.now();
try {
  switch (cmd) {
    case 'up':
    case 'start':
      if (cmd === 'start' && !list.length) throw new Error('start needs component names');
      await up(list, { onResult: printStarted });
      console.log(`up in ${secs(Date.now() - t)}; env in ${writeEnvFile()}`);
      break;
    case 'down':
    case 'stop': {
      if (cmd === 'stop' && !list.length) throw new Error('stop needs component names');
      const results = cmd === 'down' ? await down(list) : await Promise.all(list.map((n) => stop(n, { kill: flags.has('--kill') })));
      for (const r of results) console.log(`${r.name.padEnd(9)} ${r.result}`);
      break;
    }
    case 'status':
      await printStatus();
      break;
    case 'env':
      for (const [k, v] of Object.entries(env())) console.log(`export ${k}='${v}'`);
      if (fs.existsSync(smollm2Path())) console.log(`export MESHWORK_SMOLLM2_GGUF='${smollm2Path()}'`);
      if (fs.existsSync(gemma3Path())) console.log(`export MESHWORK_GEMMA3_GGUF='${gemma3Path()}'`);
      if (installedNodeLlamaCpp()) console.log(`export MESHWORK_NODE_LLAMA_CPP='${installedNodeLlamaCpp()}'`);
      break;
    case 'model': {
      const fetchers = { smollm2: smollm2Gguf, gemma3: gemma3Gguf };
      const which = list[0] ?? 'smollm2';
      if (!fetchers[which]) throw new Error(`unknown model "${which}" (${Object.keys(fetchers).join('|')})`);
      console.log(await fetchers[which]());
      break;
    }
    case 'reset':
      for (const n of list.length ? list : names) {
        const r = await stop(n);
        if (r.state === 'external') {
          console.log(`${n.padEnd(9)} external; left alone`);
          continue;
        }
        fs.rmSync(paths.data(n), { recursive: true, force: true });
        console.log(`${n.padEnd(9)} ${r.result}; data removed`);
      }
      break;
    default:
      throw new Error(`unknown command "${cmd}" (up|down|status|start|stop|env|reset|model)`);
  }
  process.exit(0); // kafkajs/pg may leave sockets lingering for a moment
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

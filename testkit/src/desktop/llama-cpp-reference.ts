/**
 * llama.cpp, the reference implementation, evaluating a GGUF on given token ids: the top-k
 * logits after every position, or a greedy continuation. It runs node-llama-cpp's prebuilt CPU
 * binary, which infra installs into the shared cache and names in MESHWORK_NODE_LLAMA_CPP (its
 * entry module's URL): installing is infra's (network, cache, logs), and testkit sits below infra.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** One position's k highest logits, highest first: [token id, logit]. */
export type TopLogits = [number, number][];

const CHILD = join(__dirname, 'llama-cpp-child.mjs');

function entry(): string {
  const url = process.env.MESHWORK_NODE_LLAMA_CPP;
  if (!url)
    throw new Error(
      'MESHWORK_NODE_LLAMA_CPP is not set: `npm test` installs node-llama-cpp and sets it; by hand, `eval "$(node infra/scripts/infra.mjs env)"` once it is installed',
    );
  return url;
}

async function run<T>(request: object): Promise<T> {
  const work = await mkdtemp(join(tmpdir(), 'llama-cpp-'));
  try {
    await writeFile(join(work, 'request.json'), JSON.stringify(request));
    await promisify(execFile)(process.execPath, [CHILD, entry(), join(work, 'request.json'), join(work, 'answer.json')], {
      timeout: 120_000,
      maxBuffer: 16 << 20,
    });
    return JSON.parse(await readFile(join(work, 'answer.json'), 'utf8')) as T;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The k highest logits llama.cpp gives after each of `tokens` from index `from` on (evaluated as
 * one sequence, no BOS added): the top of a vocabulary as large as Gemma's costs time per position.
 */
export function llamaCppTopLogits(gguf: string, tokens: readonly number[], k = 5, from = 0): Promise<TopLogits[]> {
  return run({ gguf, tokens, mode: 'top-k', k, from });
}

/** The `count` tokens llama.cpp picks greedily after `prompt`. */
export function llamaCppGreedy(gguf: string, prompt: readonly number[], count: number): Promise<number[]> {
  return run({ gguf, tokens: prompt, mode: 'greedy', count });
}

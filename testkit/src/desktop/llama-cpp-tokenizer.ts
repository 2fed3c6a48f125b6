/**
 * llama.cpp's tokenisation of texts with a GGUF's vocabulary, the reference the engine's
 * tokenizer must equal id for id. Runs node-llama-cpp's prebuilt binary in a child process
 * (infra installs it and names its entry module's URL in MESHWORK_NODE_LLAMA_CPP).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const CHILD = join(__dirname, 'llama-cpp-tokenize-child.mjs');

/** Each text's ids as llama.cpp gives them: special tokens in the text parsed, no BOS or EOS added. */
export async function llamaCppTokenize(gguf: string, texts: readonly string[]): Promise<number[][]> {
  const entry = process.env.MESHWORK_NODE_LLAMA_CPP;
  if (!entry)
    throw new Error(
      'MESHWORK_NODE_LLAMA_CPP is not set: `npm test` installs node-llama-cpp and sets it; by hand, `eval "$(node infra/scripts/infra.mjs env)"` once it is installed',
    );
  const work = await mkdtemp(join(tmpdir(), 'llama-cpp-tokenize-'));
  try {
    await writeFile(join(work, 'request.json'), JSON.stringify({ gguf, texts }));
    await promisify(execFile)(process.execPath, [CHILD, entry, join(work, 'request.json'), join(work, 'answer.json')], {
      timeout: 120_000,
    });
    return JSON.parse(await readFile(join(work, 'answer.json'), 'utf8')) as number[][];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

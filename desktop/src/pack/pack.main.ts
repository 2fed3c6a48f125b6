/**
 * `npm run model:pack -- --gguf <file> --blocks N --out <dir> [--activations fp32|int8] [--name N] [--version V]`:
 * a GGUF model into a Meshwork model package, ready for the console's upload.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ModelPackageManifest } from '@meshwork/contracts';
import { DEFAULT_ACTIVATIONS, packModel } from './packer';

const USAGE = `Usage: npm run model:pack -- --gguf <file> --blocks N --out <dir> [--activations fp32|int8] [--name N] [--version V]

  --gguf         a llama model (Q4_0, Q4_1, Q8_0, F16 or F32 weights)
  --blocks       how many parts to cut it into, for a network of devices (1 by default)
  --out          an empty or new directory for the package
  --activations  fp32 (the default: the model's own answers) or int8 (faster, approximate)
  --name         the name people see (made from the model's metadata by default)
  --version      the package's version (1.0.0 by default)`;

/** Every file of the package, not only its graphs: what the upload and the download move. */
async function packageBytes(directory: string): Promise<number> {
  const sizes = await Promise.all((await readdir(directory)).map(async (name) => (await stat(join(directory, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

function describeGeneration(generation: ModelPackageManifest['generation']): string {
  if (!generation) return 'the model states no sampling defaults (hosts use temperature 0.7, top-p 0.9)';
  const named = { temperature: 'temperature', topP: 'top-p', topK: 'top-k', repeatPenalty: 'repeat penalty', repeatLastN: 'repeat window' };
  return `the model's sampling defaults: ${Object.entries(generation)
    .map(([field, value]) => `${named[field as keyof typeof named]} ${value}`)
    .join(', ')}`;
}

/**
 * The packer's current step: on a terminal, one line rewritten in place once packing has taken
 * more than a moment; in a log, a line every few seconds.
 */
function progressDisplay(): { show: (step: string) => void; clear: () => void } {
  const started = Date.now();
  const terminal = process.stdout.isTTY;
  let lastPrinted = started;
  let shown = false;
  return {
    show(step) {
      const now = Date.now();
      const seconds = ((now - started) / 1000).toFixed(0);
      if (terminal && now - started > 500) {
        process.stdout.write(`\r\x1b[2K${step} (${seconds} s)`);
        shown = true;
      } else if (!terminal && now - lastPrinted >= 5000) {
        console.log(`${step} (${seconds} s)`);
        lastPrinted = now;
      }
    },
    clear() {
      if (shown) process.stdout.write('\r\x1b[2K');
      shown = false;
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      gguf: { type: 'string' },
      blocks: { type: 'string', default: '1' },
      out: { type: 'string' },
      activations: { type: 'string', default: DEFAULT_ACTIVATIONS },
      version: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const blocks = Number(values.blocks);
  const { gguf, out, activations, version, name } = values;
  if (!gguf || !out || !Number.isInteger(blocks) || (activations !== 'int8' && activations !== 'fp32')) throw new Error(USAGE);
  const started = performance.now();
  const display = progressDisplay();
  const manifest = await packModel({
    gguf,
    out,
    blocks,
    activations,
    version,
    name,
    progress: display.show,
    log: (line) => {
      display.clear();
      console.log(line);
    },
  });
  display.clear();
  const megabytes = ((await packageBytes(out)) / 1e6).toFixed(1);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const parts = `${manifest.blocks.length} block${manifest.blocks.length === 1 ? '' : 's'}`;
  console.log(`${manifest.name}: ${parts}, ${activations} activations, ${megabytes} MB in ${out} (${seconds} s)`);
  console.log(describeGeneration(manifest.generation));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

/**
 * `npm run model:pack -- (--gguf <file> | --hf <folder> [--quant q4|q8]) --blocks N --out <dir> [--activations fp32|int8] [--name N] [--version V]`:
 * a GGUF model or a Hugging Face safetensors folder into a Meshwork model package, ready for the console's upload.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ModelPackageManifest } from '@meshwork/contracts';
import { readHfFolder } from './hf/hf-folder';
import type { PackQuant } from './hf/quantize';
import { progressReporter } from './pack-progress';
import { DEFAULT_ACTIVATIONS, packModel } from './packer';

const USAGE = `Usage: npm run model:pack -- (--gguf <file> | --hf <folder> [--quant q4|q8]) --blocks N --out <dir> [--activations fp32|int8] [--name N] [--version V]

  --gguf         a GGUF model (llama, qwen2, qwen3, gemma2, gemma3 or phi3)
  --hf           or a Hugging Face folder: config.json, *.safetensors (F32, F16, BF16), tokenizer.json
  --quant        q4 or q8: quantise the folder's weights while packing (round to nearest, blocks of 32); float32 without
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      gguf: { type: 'string' },
      hf: { type: 'string' },
      quant: { type: 'string' },
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
  const { out, activations, version, name, quant } = values;
  const quantOk = quant === undefined || ((quant === 'q4' || quant === 'q8') && values.hf !== undefined);
  if (!values.gguf === !values.hf || !quantOk || !out || !Number.isInteger(blocks) || (activations !== 'int8' && activations !== 'fp32'))
    throw new Error(USAGE);
  const gguf = values.hf ? await readHfFolder(values.hf, quant as PackQuant | undefined) : values.gguf!;
  const started = performance.now();
  const display = progressReporter(process.stdout, process.stderr);
  // Ctrl-C stops at the next tensor and removes the partial package; a second one kills at once.
  const interrupt = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => interrupt.abort(new Interrupted(`Stopped: nothing was written to ${out}.`)));
  const manifest = await packModel({
    gguf,
    out,
    blocks,
    activations,
    version,
    name,
    progress: display.progress,
    log: display.log,
    signal: interrupt.signal,
  }).finally(display.finish);
  const megabytes = ((await packageBytes(out)) / 1e6).toFixed(1);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const parts = `${manifest.blocks.length} block${manifest.blocks.length === 1 ? '' : 's'}`;
  console.log(`${manifest.name}: ${parts}, ${activations} activations, ${megabytes} MB in ${out} (${seconds} s)`);
  console.log(describeGeneration(manifest.generation));
}

class Interrupted extends Error {}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = error instanceof Interrupted ? 130 : 1;
});

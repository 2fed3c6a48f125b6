/**
 * `npm run model:pack -- --gguf <file> --blocks N --out <dir> [--activations int8|fp32] [--version V]`:
 * a GGUF model into a Meshwork model package, ready for the console's upload.
 */
import { parseArgs } from 'node:util';
import { packModel } from './packer';

const USAGE = 'Usage: npm run model:pack -- --gguf <file> --blocks N --out <dir> [--activations int8|fp32] [--name N] [--version V]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      gguf: { type: 'string' },
      blocks: { type: 'string', default: '1' },
      out: { type: 'string' },
      activations: { type: 'string', default: 'int8' },
      version: { type: 'string' },
      name: { type: 'string' },
    },
  });
  const blocks = Number(values.blocks);
  const { gguf, out, activations, version, name } = values;
  if (!gguf || !out || !Number.isInteger(blocks) || (activations !== 'int8' && activations !== 'fp32')) throw new Error(USAGE);
  const started = performance.now();
  const manifest = await packModel({ gguf, out, blocks, activations, version, name, log: (line) => console.log(line) });
  const total = manifest.blocks.reduce((sum, b) => sum + b.bytes, 0);
  console.log(
    `${manifest.name}: ${manifest.blocks.length} blocks, ${(total / 1e6).toFixed(1)} MB in ${out} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

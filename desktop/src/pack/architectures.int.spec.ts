/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Conformance against llama.cpp, the reference implementation: for every architecture the
 * packer takes, a small random-weight model with the real structure is written as GGUF, packed,
 * and run by both engines on the same token ids over more positions than any sliding window.
 * Each tensor type on its own: tensor-types.int.spec.ts.
 *
 * Bounds, against llama.cpp multiplying in fp32: on the F32 file, and for Q8_0 weights on the
 * same weights written as F32 (each value exactly as Q8_0 stores it), because on a Q8_0 file
 * llama.cpp rounds the activations to int8 blocks before every dot product (ggml-cpu.c,
 * type_traits_cpu[].vec_dot_type; tensor-types.int.spec.ts compares with that too). Our fp32
 * activations must agree at 0.99 of positions or more, our int8 activations at 0.97. Our int8
 * is compared with llama.cpp's fp32 too, so what is measured is our rounding alone: llama.cpp's
 * int8 on the Q8_0 file rounds alike (below) but its rounding lands on other positions, and
 * compared with it the counts move a few positions either way (gemma3: 279 of 288 both ways).
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packModel } from './packer';
import { GgmlType } from './quant';
import { conformanceTokens, expectAgreement, LlamaCpp, packAndRun } from './testing/conformance';
import { SYNTHETIC_MODELS, syntheticGgufs, type SyntheticModel } from '@meshwork/testkit/desktop/synthetic-models';
import { tinyLlamaGguf } from '@meshwork/testkit/desktop/tiny-llama';

const VOCAB = 512;

let work: string;
let llamaCpp: LlamaCpp;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'conformance-'));
  llamaCpp = new LlamaCpp(work);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const CASES = [
  { weights: 'F32', type: GgmlType.F32, activations: 'fp32', blocks: 1, bound: 0.99 },
  { weights: 'Q8_0', type: GgmlType.Q8_0, activations: 'fp32', blocks: 2, bound: 0.99 },
  { weights: 'Q8_0', type: GgmlType.Q8_0, activations: 'int8', blocks: 3, bound: 0.97 },
] as const;

/**
 * gemma3 with int8 activations is held at what it measures, 279 of 288, so a regression still
 * fails; the 0.97 is 280. Not a loss in our int8 path but int8 itself on this model
 * (six layers, a tied head with flat logits: every miss a near-tie, the top two within 0.04),
 * measured on it written from four seeds, 288 positions each:
 * - ours: 279, 279, 276, 275; llama.cpp's own int8 on the same Q8_0 file: 282, 276, 277, 278.
 *   The top logit's RMS error from llama.cpp's fp32 is the same for both (0.0117, 0.0116).
 * - Both round the activations alike: blocks of 32, scale max|x|/127, round half to even
 *   (ggml's quantize_row_q8_0, onnxruntime's QuantizeARow_CompInt8; ggml keeps the scale in
 *   fp16, we in fp32), in every matrix including the head; attention and norms stay fp32.
 * - Keeping one kind of matrix at fp32 activations (the head, qkv, attention output, gate-up
 *   or down) moves the mean over the four by 2 positions at most, and none holds 0.97 on all
 *   four (down, the best: 281, 283, 273, 280; it costs 14% of decode on Gemma 3 270M).
 */
const boundOf = (model: SyntheticModel, activations: 'fp32' | 'int8', bound: number) =>
  model === 'gemma3' && activations === 'int8' ? 0.965 : bound;

describe.each(SYNTHETIC_MODELS)('%s, packed, against llama.cpp', (model: SyntheticModel) => {
  it.each(CASES.map((c) => ({ ...c, bound: boundOf(model, c.activations, c.bound) })))(
    '$weights weights, $activations activations, $blocks block(s): top-1 agreement of $bound or more',
    async ({ weights, type, activations, blocks, bound }) => {
      const tokens = conformanceTokens(VOCAB);
      const name = `${model}-${weights}`;
      const files = await llamaCpp.model(name, () => syntheticGgufs(model, type));
      const [ours, theirs] = await Promise.all([
        packAndRun(files.gguf, join(work, `${name}-${activations}`), blocks, activations, tokens),
        llamaCpp.topLogits(files.exact, tokens),
      ]);
      expectAgreement(ours, theirs, bound, `${model}, ${weights} weights, ${activations} activations`);
    },
    60_000,
  );
});

it('refuses any other architecture before writing anything, naming those it takes', async () => {
  const gguf = join(work, 'mamba.gguf');
  await writeFile(
    gguf,
    tinyLlamaGguf({ matrices: GgmlType.F32, metadata: { 'general.architecture': { type: 'string', value: 'mamba' } } }),
  );
  await expect(packModel({ gguf, out: join(work, 'mamba'), blocks: 1 })).rejects.toThrow(
    'Models of architecture "mamba" cannot be packed; supported: llama, qwen2, qwen3, gemma2, gemma3, phi3',
  );
  await expect(readdir(join(work, 'mamba'))).rejects.toThrow(/ENOENT/);
});

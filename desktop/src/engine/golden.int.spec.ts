/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * The engine on the real model (SmolLM2-135M-Instruct, Q4_1 GGUF fetched by infra): the packer's
 * default package, the tokenizer and the runtime together must give the model's own answer,
 * token for token, the first included (a near tie that int8 activations flip).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packModel } from '../pack/packer';
import { BlockRunner } from './block-runner';
import { generate } from './generate';
import { generationDefaults } from './generation-defaults';
import { LocalModel, readManifest } from './local-model';
import { argmax } from './sampler';
import { compileChatTemplate } from './tokenizer/chat-template';
import { Tokenizer } from './tokenizer/tokenizer';

const GGUF = process.env.MESHWORK_SMOLLM2_GGUF;
const CHAT = [
  { role: 'system', content: 'You are a helpful AI assistant named SmolLM, trained by Hugging Face' },
  { role: 'user', content: 'What is the capital of France?' },
];
const CHAT_IDS = [
  1, 9690, 198, 2683, 359, 253, 5356, 5646, 11173, 3365, 3511, 308, 34519, 28, 7018, 411, 407, 19712, 8182, 2, 198, 1, 4093, 198, 1780, 314,
  260, 3575, 282, 4649, 47, 2, 198, 1, 520, 9531, 198,
];
const ANSWER_IDS = [504, 3575, 282, 4649, 314, 7042, 30];
// Ordinary English (written for these tests, about 600 tokens): the int8 agreement check's text
// and, in part, the inference benchmark's prompt.
const ENGLISH = readFileSync(join(__dirname, 'testing', 'english.txt'), 'utf8');

describe('the engine on SmolLM2-135M-Instruct', () => {
  let work: string;
  // The default package (no activations named), in 1 and 3 blocks; int8 for the experts' check.
  const dirs: Record<'exact1' | 'exact3' | 'int8', string> = { exact1: '', exact3: '', int8: '' };
  let tokenizer: Tokenizer;
  let template: ReturnType<typeof compileChatTemplate>;

  beforeAll(async () => {
    if (!GGUF)
      throw new Error(
        'MESHWORK_SMOLLM2_GGUF is not set: `npm test` fetches the model, or run `eval "$(node infra/scripts/infra.mjs env)"` after `node infra/scripts/infra.mjs model`',
      );
    work = await mkdtemp(join(tmpdir(), 'golden-'));
    for (const [key, blocks, activations] of [
      ['exact1', 1, undefined],
      ['exact3', 3, undefined],
      ['int8', 1, 'int8'],
    ] as const) {
      dirs[key] = join(work, key);
      await packModel({ gguf: GGUF, out: dirs[key], blocks, activations });
    }
    const json: unknown = JSON.parse(await readFile(join(dirs.exact1, 'tokenizer.json'), 'utf8'));
    tokenizer = Tokenizer.fromJson(json);
    template = compileChatTemplate((await readManifest(dirs.exact1)).chatTemplate);
  }, 120_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the tokenizer gives the golden ids for the chat, and decodes the answer', () => {
    expect(tokenizer.encode(template(CHAT))).toEqual(CHAT_IDS);
    expect(tokenizer.decode(ANSWER_IDS)).toBe('The capital of France is Paris.');
    const text = `${ENGLISH} 1234 — ünïcødé 🎉`;
    expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
  });

  it('the package names the model for people, lists its blocks, layers and hashes, and 3 blocks cover the 30 layers', async () => {
    const three = await readManifest(dirs.exact3);
    expect(three).toMatchObject({ name: 'SmolLM2 135M Instruct', activations: 'fp32' });
    expect(three.blocks.map((b) => b.layers)).toEqual([
      [0, expect.any(Number)],
      [three.blocks[0]!.layers[1], expect.any(Number)],
      [three.blocks[1]!.layers[1], 30],
    ]);
    expect(three.specialTokens.stop).toContain(2);
  });

  for (const key of ['exact1', 'exact3'] as const) {
    it(`greedy decoding on the default package answers "The capital of France is Paris.", every token (${key === 'exact1' ? '1 block' : '3 blocks'})`, async () => {
      const model = await LocalModel.load(dirs[key]);
      const manifest = model.manifest;
      const streamed: string[] = [];
      const result = await generate(model, tokenizer.decoder(), CHAT_IDS, {
        stopTokens: manifest.specialTokens.stop,
        maxTokens: 20,
        onText: (t) => streamed.push(t),
      });
      await model.release();
      expect(result.tokens).toEqual(ANSWER_IDS);
      expect(result).toMatchObject({ text: 'The capital of France is Paris.', finishReason: 'stop' });
      expect(streamed.join('')).toBe(result.text);
    }, 60_000);
  }

  it('with the host’s defaults (repeat penalty, token limit) and temperature 0 the answer is the same, every token', async () => {
    const model = await LocalModel.load(dirs.exact1);
    const defaults = generationDefaults(model.manifest);
    expect(defaults).toMatchObject({ repeatPenalty: 1.1, maxTokens: 512 });
    const result = await generate(model, tokenizer.decoder(), CHAT_IDS, {
      ...defaults,
      temperature: 0,
      stopTokens: model.manifest.specialTokens.stop,
    });
    await model.release();
    expect(result.tokens).toEqual(ANSWER_IDS);
    expect(result.finishReason).toBe('stop');
  }, 60_000);

  it('with int8 activations (for experts) the answer after its first token is Paris, and top-1 agrees with the exact path on ≥ 97% of English tokens', async () => {
    const fast = await LocalModel.load(dirs.int8);
    const exact = await LocalModel.load(dirs.exact1);
    // Teacher-forced through the golden answer: every next token int8 predicts, Paris included.
    let fastLogits = await fast.forward(CHAT_IDS);
    const exactLogits = await exact.forward(CHAT_IDS);
    const predicted: number[] = [];
    for (const id of [...ANSWER_IDS, 2]) {
      predicted.push(argmax(fastLogits));
      fastLogits = await fast.forward([id]);
    }
    // The answer's first word is a near tie in this model ("The" against "L"): the exact path's
    // choice must be int8's best or within a fraction of a logit of it.
    const first = await (fast.truncate(0), fast.forward(CHAT_IDS));
    expect(first[argmax(first)]! - first[argmax(exactLogits)]!).toBeLessThan(0.25);
    expect(predicted.slice(1)).toEqual([...ANSWER_IDS.slice(1), 2]);

    fast.truncate(0);
    exact.truncate(0);
    const ids = tokenizer.encode(ENGLISH);
    expect(ids.length).toBeGreaterThan(550);
    let agree = 0;
    for (const id of ids) if (argmax(await fast.forward([id])) === argmax(await exact.forward([id]))) agree++;
    const agreement = agree / ids.length;
    console.log(
      `int8 vs fp32 top-1 agreement: ${agree}/${ids.length} = ${agreement.toFixed(4)}; first answer token int8 ${argmax(first)}, exact ${argmax(exactLogits)}`,
    );
    await Promise.all([fast.release(), exact.release()]);
    expect(agreement).toBeGreaterThanOrEqual(0.97);
  }, 180_000);

  it('prefill then decode gives the logits of one long prefill, and each block runs on its own', async () => {
    const ids = tokenizer.encode(ENGLISH).slice(0, 40);
    const whole = await LocalModel.load(dirs.exact3);
    const once = await whole.forward(ids);
    whole.truncate(0);
    await whole.forward(ids.slice(0, 30));
    let stepped: Float32Array = new Float32Array();
    for (const id of ids.slice(30)) stepped = await whole.forward([id]);
    expect(maxDifference(once, stepped)).toBeLessThan(1e-3);

    // The same three blocks loaded one by one, as three devices would hold them.
    const manifest = await readManifest(dirs.exact3);
    let state: BigInt64Array | Float32Array = BigInt64Array.from(ids, BigInt);
    for (const block of manifest.blocks) {
      const alone = await BlockRunner.load(dirs.exact3, manifest, block.index, { verify: true });
      state = await alone.forward(state, ids.length, alone.newCache());
      await alone.release();
    }
    expect(maxDifference(once, state as Float32Array)).toBeLessThan(1e-4);
    await whole.release();
  }, 60_000);
});

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

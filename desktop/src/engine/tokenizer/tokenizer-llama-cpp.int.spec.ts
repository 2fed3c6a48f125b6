/**
 * The tokenizer against llama.cpp, the reference, on the same GGUF and the same text: English,
 * Persian, Chinese, code, emoji and long runs of spaces. Real models (SmolLM2: byte-level BPE,
 * the "smollm" pre-tokenizer; Gemma 3: SentencePiece with byte fallback), then vocabularies
 * made in the test and written as GGUF: SentencePiece by scores, and byte-level BPE with Llama
 * 3's pre-tokenizer, so each kind is checked beyond the one real model that has it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { llamaCppTokenize } from '@meshwork/testkit/desktop/llama-cpp-tokenizer';
import { writeGguf, type MetaValue } from '@meshwork/testkit/desktop/tiny-gguf';
import { readGguf } from '../../pack/gguf';
import { tokenizerJson } from '../../pack/tokenizer-json';
import { bytesToSymbols } from './byte-level';
import { Tokenizer } from './tokenizer';

const TEXT = [
  "The quick brown fox jumps over the lazy dog. It's 3.14159, or 1,234,567 — WE'LL SEE, they've said.",
  'فارسی: سلام دنیا! این یک جملهٔ آزمایشی است، با عدد ۱۲۳۴۵ و نیم‌فاصله.',
  '中文：你好，世界！这是一个测试句子，包含数字１２３和标点。',
  'export function add(a: number, b: number): number {\n\treturn a + b; // 42\n}\n\nconst xs = [1, 2, 3].map((n) => n ** 2);\n',
  'Emoji: 🎉😀 👩‍👩‍👧‍👦 🇮🇷 ✔️ 🤖🤖🤖',
  `Spaces:${' '.repeat(40)}end\t\t  \n\n\n   \n${' '.repeat(17)}x   ${' '.repeat(100)}`,
].join('\n');

/** The texts each vocabulary is checked on: the whole, each line alone, and edge cases. */
const TEXTS = [TEXT, ...TEXT.split('\n'), ' leading space', '  two leading spaces', 'trailing  ', '\n\nnewlines first', 'x', '🎉'];

/** Our ids as llama.cpp's `tokenize` gives them: without the BOS and EOS the model adds. */
function ours(tokenizer: Tokenizer, text: string): number[] {
  const { addBos, bos, addEos } = tokenizer.json;
  const ids = tokenizer.encode(text);
  return ids.slice(addBos && bos !== undefined ? 1 : 0, addEos ? -1 : undefined);
}

async function expectSameAsLlamaCpp(gguf: string, texts: string[]): Promise<Tokenizer> {
  const tokenizer = Tokenizer.fromJson(tokenizerJson(await readGguf(gguf)));
  const reference = await llamaCppTokenize(gguf, texts);
  for (const [i, text] of texts.entries()) {
    const ids = ours(tokenizer, text);
    const expected = reference[i]!;
    let first = 0;
    while (first < expected.length && ids[first] === expected[first]) first++;
    // On a difference, show where, and the token texts around it.
    const near = (list: number[]) => list.slice(Math.max(0, first - 2), first + 4).map((id) => tokenizer.json.tokens[id]);
    expect({ text, first, ours: near(ids), llamaCpp: near(expected) }).toEqual({
      text,
      first: ids.length,
      ours: near(expected),
      llamaCpp: near(expected),
    });
    expect(ids).toEqual(expected);
  }
  return tokenizer;
}

const real = (name: string, variable: string) => {
  const path = process.env[variable];
  if (!path) throw new Error(`${variable} is not set: \`npm test\` fetches ${name} (node infra/scripts/infra.mjs env)`);
  return path;
};

describe('token ids equal llama.cpp’s on the real models', () => {
  it('SmolLM2 (byte-level BPE, "smollm"), chat markers included', async () => {
    const texts = [...TEXTS, '<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n'];
    const tokenizer = await expectSameAsLlamaCpp(real('SmolLM2', 'MESHWORK_SMOLLM2_GGUF'), texts);
    expect(tokenizer.decode(tokenizer.encode(TEXT))).toBe(TEXT);
  }, 60_000);

  it('Gemma 3 270M (SentencePiece: scores, byte fallback, user-defined whitespace runs)', async () => {
    const texts = [...TEXTS, '<start_of_turn>user\nHi there<end_of_turn>\n<start_of_turn>model\n'];
    const tokenizer = await expectSameAsLlamaCpp(real('Gemma 3 270M', 'MESHWORK_GEMMA3_GGUF'), texts);
    expect(tokenizer.json.model).toBe('llama');
    expect(tokenizer.decode(ours(tokenizer, TEXT))).toBe(TEXT);
  }, 60_000);
});

/** A deterministic random source, so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) >>> 8) % n;
}

const ARCHITECTURE: Record<string, MetaValue> = {
  'general.architecture': { type: 'string', value: 'llama' },
  'llama.context_length': { type: 'u32', value: 256 },
  'llama.embedding_length': { type: 'u32', value: 64 },
  'llama.block_count': { type: 'u32', value: 1 },
  'llama.feed_forward_length': { type: 'u32', value: 128 },
  'llama.attention.head_count': { type: 'u32', value: 4 },
  'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-5 },
};

/** Substrings of the text (as code points), up to `longest` long: what a trained vocabulary would hold. */
function substrings(text: string, count: number, longest: number, pick: (n: number) => number): string[] {
  const chars = [...text];
  return Array.from({ length: count }, () => {
    const start = pick(chars.length);
    return chars.slice(start, start + 1 + pick(longest)).join('');
  });
}

describe('token ids equal llama.cpp’s on vocabularies made in the test', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'tokenizer-gguf-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('SentencePiece: merges by score, byte fallback for what the vocabulary lacks, a space prefix', async () => {
    const pick = random(7);
    const escaped = TEXT.replace(/ /g, '▁');
    // Single characters of the text only in part, so others fall back to their bytes.
    const pieces = new Set([...new Set(escaped)].filter(() => pick(4) > 0));
    for (const piece of substrings(escaped, 3000, 5, pick)) pieces.add(piece);
    const bytes = Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    const tokens = ['<unk>', '<s>', '</s>', ...bytes, '<start_of_turn>', ...[...pieces].filter((p) => !/^<0x|^<s>$|^<\/?s>$/.test(p))];
    const types = tokens.map((token, id) => (id === 0 ? 2 : id < 3 || token === '<start_of_turn>' ? 3 : id < 259 ? 6 : 1));
    const path = join(dir, 'spm.gguf');
    await writeFile(
      path,
      writeGguf(
        {
          ...ARCHITECTURE,
          'tokenizer.ggml.model': { type: 'string', value: 'llama' },
          'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', value: tokens },
          // Scores tie often (one in 50 values), so the leftmost-first rule is checked too.
          'tokenizer.ggml.scores': { type: 'array', itemType: 'f32', value: tokens.map((_, id) => (id < 260 ? 0 : -pick(50))) },
          'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', value: types },
          'tokenizer.ggml.bos_token_id': { type: 'u32', value: 1 },
          'tokenizer.ggml.eos_token_id': { type: 'u32', value: 2 },
        },
        [],
      ),
    );
    const tokenizer = await expectSameAsLlamaCpp(path, [...TEXTS, '<start_of_turn>user\nhi<start_of_turn> x']);
    expect(tokenizer.json.addSpacePrefix).toBe(true);
  }, 60_000);

  it('byte-level BPE with Llama 3’s pre-tokenizer (digits in threes, whole words kept whole)', async () => {
    const pick = random(11);
    const symbols = (text: string) => bytesToSymbols(new TextEncoder().encode(text));
    const tokens = Array.from({ length: 256 }, (_, b) => bytesToSymbols(Uint8Array.of(b))[0]!);
    const known = new Set(tokens);
    const merges: string[] = [];
    // Each substring merged left to right: across word, digit and space boundaries too, so a
    // piece cut in the wrong place gives other ids.
    for (const piece of substrings(TEXT, 2500, 6, pick)) {
      const parts = symbols(piece);
      let left = parts[0]!;
      for (const right of parts.slice(1)) {
        if (!known.has(left + right)) {
          merges.push(`${left} ${right}`);
          known.add(left + right);
          tokens.push(left + right);
        }
        left += right;
      }
    }
    // Whole words no merge reaches: llama.cpp takes them as they are (ignore_merges).
    for (const word of ['Ġquick', 'Ġbrown', 'export']) if (!known.has(word)) tokens.push(word);
    tokens.push('<|begin_of_text|>', '<|eot_id|>');
    const path = join(dir, 'llama3.gguf');
    await writeFile(
      path,
      writeGguf(
        {
          ...ARCHITECTURE,
          'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
          'tokenizer.ggml.pre': { type: 'string', value: 'llama-bpe' },
          'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', value: tokens },
          'tokenizer.ggml.token_type': { type: 'array', itemType: 'i32', value: tokens.map((_, id) => (id >= tokens.length - 2 ? 3 : 1)) },
          'tokenizer.ggml.merges': { type: 'array', itemType: 'string', value: merges },
          'tokenizer.ggml.bos_token_id': { type: 'u32', value: tokens.length - 2 },
          'tokenizer.ggml.eos_token_id': { type: 'u32', value: tokens.length - 1 },
        },
        [],
      ),
    );
    const tokenizer = await expectSameAsLlamaCpp(path, [...TEXTS, '<|begin_of_text|>Hi 12345<|eot_id|>', "I'M don'T 1234567"]);
    expect(tokenizer.json.addBos).toBe(true);
  }, 60_000);
});

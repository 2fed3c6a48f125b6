/**
 * The tokenizer on the real SmolLM2 vocabulary (49,152 tokens, 48,900 merges, the "smollm"
 * pre-tokenizer; the GGUF fetched by infra) against the rescan it replaced (issue 31): the same
 * ids on ordinary and hostile text, small enough for the rescan to finish.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readGguf } from '../../pack/gguf';
import { tokenizerJson } from '../../pack/tokenizer-json';
import { referenceTokenizer } from './testing/reference-tokenizer';
import { Tokenizer } from './tokenizer';

const GGUF = process.env.MESHWORK_SMOLLM2_GGUF;
const ENGLISH = readFileSync(join(__dirname, '..', 'testing', 'english.txt'), 'utf8');

describe('the tokenizer on SmolLM2’s vocabulary, against the rescan it replaced', () => {
  let tokenizer: Tokenizer;
  let reference: (text: string) => number[];

  beforeAll(async () => {
    if (!GGUF) throw new Error('MESHWORK_SMOLLM2_GGUF is not set: `npm test` fetches the model (node infra/scripts/infra.mjs model)');
    const json = tokenizerJson(await readGguf(GGUF));
    tokenizer = Tokenizer.fromJson(json);
    reference = referenceTokenizer(json);
  });

  it.each([
    ['English prose', ENGLISH],
    ['a chat in the template', '<|im_start|>user\nWhat’s 2+2? Answer in one word.<|im_end|>\n<|im_start|>assistant\n'],
    ['code', 'export function add(a: number, b: number): number {\n\treturn a + b; // 42\n}\n\n'.repeat(10)],
    ['other scripts', 'Ελληνικά, русский, 日本語のテキスト, 한국어, العربية, हिन्दी — café naïve façade '.repeat(5)],
    ['contractions and mixed case', "I'm sure they've said it's John's; WE'LL SEE, you'd agree. "],
    ['one long word', 'supercalifragilisticexpialidocious'.repeat(120)],
    ['one letter repeated', 'a'.repeat(2000)],
    ['emoji repeated', '🎉'.repeat(500) + '👩‍👩‍👧‍👦'.repeat(50)],
    ['digit runs', '1234567890'.repeat(300) + ' 3.14159265358979'],
    ['whitespace runs', ' '.repeat(1000) + 'x' + '\n'.repeat(500) + '\t \t'.repeat(300)],
    ['punctuation runs', '-'.repeat(2000) + '=+*'.repeat(300)],
  ])('%s', (_, text) => {
    expect(tokenizer.encode(text)).toEqual(reference(text));
    expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
  });
});

import { tokenizerJson } from '../tokenizer-json';
import { hfTokenizerMetadata, preTokenizerName } from './hf-tokenizer';

const LLAMA3 = String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
const QWEN2 = LLAMA3.replace(String.raw`\p{N}{1,3}`, String.raw`\p{N}`);
const split = (regex: string) => ({
  type: 'Sequence',
  pretokenizers: [
    { type: 'Split', pattern: { Regex: regex }, behavior: 'Isolated', invert: false },
    { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
  ],
});

/** The package tokenizer made from HF files, through the same path a GGUF's metadata takes. */
function packaged(tokenizer: Record<string, unknown>, tokenizerConfig: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
  const metadata = hfTokenizerMetadata({ tokenizer, tokenizerConfig, config });
  return tokenizerJson({ path: 'x', version: 3, alignment: 32, dataOffset: 0, metadata, tensors: new Map() });
}

describe('HF pre-tokenizers, recognised by their regex', () => {
  it.each([
    ['llama3', split(LLAMA3)],
    ['qwen2', split(QWEN2)],
    ['gpt-2', { type: 'ByteLevel', add_prefix_space: false, use_regex: true }],
    [
      'smollm',
      {
        type: 'Sequence',
        pretokenizers: [
          { type: 'Digits', individual_digits: true },
          { type: 'ByteLevel', use_regex: true },
        ],
      },
    ],
  ])('%s', (name, pre) => expect(preTokenizerName(pre)).toBe(name));

  it('refuses a regex it does not know, quoting it', () => {
    expect(() => preTokenizerName(split(String.raw`\p{L}+`))).toThrow(
      String.raw`tokenizer.json's pre-tokenizer is not one Meshwork recognises (Split, ByteLevel, regex \p{L}+)`,
    );
  });
});

describe('byte-level BPE', () => {
  const tokenizer = {
    added_tokens: [{ id: 5, content: '<|begin_of_text|>', special: true }],
    pre_tokenizer: split(LLAMA3),
    post_processor: {
      type: 'Sequence',
      processors: [
        { type: 'ByteLevel' },
        { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '<|begin_of_text|>' } }, { Sequence: { id: 'A' } }] },
      ],
    },
    model: { type: 'BPE', vocab: { h: 0, e: 1, he: 2, l: 3, o: 4 }, merges: [['h', 'e']] },
  };

  it('takes tokens, merges, special tokens, BOS from the post-processor, the chat template, and pads to the config vocabulary', () => {
    const json = packaged(
      tokenizer,
      { bos_token: '<|begin_of_text|>', eos_token: { content: 'o' }, chat_template: [{ name: 'default', template: 'T' }] },
      { vocab_size: 8 },
    );
    expect(json).toMatchObject({
      model: 'gpt2',
      pre: 'llama3',
      tokens: ['h', 'e', 'he', 'l', 'o', '<|begin_of_text|>', '[PAD6]', '[PAD7]'],
      tokenTypes: [1, 1, 1, 1, 1, 3, 5, 5],
      merges: ['h e'],
      bos: 5,
      eos: 4,
      addBos: true,
      chatTemplate: 'T',
    });
  });
});

describe('SentencePiece converted to BPE (byte fallback)', () => {
  it('scores each piece by its merge rank, marks byte tokens, and adds the space prefix the normalizer prepends', () => {
    const json = packaged(
      {
        normalizer: { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace' }] },
        added_tokens: [
          { id: 0, content: '<unk>', special: true },
          { id: 1, content: '<s>', special: true },
          { id: 2, content: '</s>', special: true },
        ],
        model: {
          type: 'BPE',
          byte_fallback: true,
          vocab: { '<unk>': 0, '<s>': 1, '</s>': 2, '<0x41>': 3, '▁': 4, a: 5, '▁a': 6, aa: 7, '▁aa': 8 },
          merges: ['▁ a', 'a a', '▁a a'],
        },
      },
      { bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', add_bos_token: true },
    );
    expect(json).toMatchObject({ model: 'llama', bos: 1, eos: 2, unknown: 0, addBos: true, addSpacePrefix: true });
    expect(json.tokenTypes).toEqual([2, 3, 3, 6, 1, 1, 1, 1, 1]);
    expect(json.scores!.slice(6)).toEqual([0, -1, -2]);
    expect(json.scores![5]).toBeLessThan(-2);
  });
});

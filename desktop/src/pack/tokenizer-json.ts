/**
 * The package's `tokenizer.json`, taken from the GGUF's tokenizer metadata, and the tokens that
 * end an answer (end of text and end of turn markers the vocabulary marks as control tokens).
 * Defaults are llama.cpp's (llama_vocab::impl::load), so a file that leaves a flag out is
 * tokenised as llama.cpp tokenises it. A tokenizer Meshwork cannot apply is refused here, at
 * pack time, rather than when a host first loads the package.
 */
import { TokenizerJson } from '@meshwork/contracts';
import { PRE_TOKENIZER_NAMES, preTokenizerNamed } from '../engine/tokenizer/pre-tokenizer';
import { metaArray, metaNumber, metaString, type GgufFile } from './gguf';

const END_OF_TURN = ['<|im_end|>', '<|eot_id|>', '<|eom_id|>', '<|end|>', '<|endoftext|>', '<end_of_turn>'];
const CONTROL = 3;
const UNKNOWN = 2;
const USER_DEFINED = 4;
/** Byte-level BPE pre-tokenizers after which llama.cpp adds BOS unless the file says otherwise. */
const ADDS_BOS = new Set(['llama3', 'llama-v3', 'llama-bpe', 'falcon3', 'falcon-h1', 'pixtral', 'midm-2.0', 'lfm2', 'tekken']);

export function tokenizerJson(file: GgufFile): TokenizerJson {
  const model = metaString(file, 'tokenizer.ggml.model');
  if (model !== 'gpt2' && model !== 'llama')
    throw new Error(
      `This model's tokenizer is "${model}" (tokenizer.ggml.model); Meshwork packs byte-level BPE ("gpt2") and SentencePiece ("llama") tokenizers`,
    );
  const has = (key: string) => file.metadata.has(key);
  const flag = (key: string, otherwise: boolean) => (has(key) ? file.metadata.get(key) === true : otherwise);
  const id = (key: string) => (has(key) ? metaNumber(file, key) : undefined);
  const strings = (key: string) =>
    metaArray(file, key).map((value) => {
      if (typeof value !== 'string') throw new Error(`The model's ${key} holds something other than text`);
      return value;
    });
  const tokens = strings('tokenizer.ggml.tokens');
  const tokenTypes = has('tokenizer.ggml.token_type') ? metaArray(file, 'tokenizer.ggml.token_type').map(Number) : tokens.map(() => 1);
  const pre = model === 'gpt2' && has('tokenizer.ggml.pre') ? metaString(file, 'tokenizer.ggml.pre') : 'default';
  if (model === 'gpt2' && !preTokenizerNamed(pre))
    throw new Error(`This model's pre-tokenizer "${pre}" (tokenizer.ggml.pre) is not one Meshwork has: ${PRE_TOKENIZER_NAMES.join(', ')}`);
  const spm = model === 'llama';
  const scores = spm ? metaArray(file, 'tokenizer.ggml.scores').map(Number) : undefined;
  if (scores && scores.length !== tokens.length) throw new Error(`The model has ${tokens.length} tokens but ${scores.length} scores`);
  return TokenizerJson.parse({
    format: 'meshwork-tokenizer/1',
    model,
    pre,
    tokens,
    tokenTypes,
    merges: spm ? [] : strings('tokenizer.ggml.merges'),
    scores,
    // SentencePiece vocabularies put <unk>, <s>, </s> first when the file does not say.
    bos: id('tokenizer.ggml.bos_token_id') ?? (spm ? 1 : undefined),
    eos: id('tokenizer.ggml.eos_token_id') ?? (spm ? 2 : metaNumber(file, 'tokenizer.ggml.eos_token_id')),
    unknown: id('tokenizer.ggml.unknown_token_id') ?? (spm ? 0 : undefined),
    addBos: flag('tokenizer.ggml.add_bos_token', spm || ADDS_BOS.has(pre)),
    addEos: flag('tokenizer.ggml.add_eos_token', false),
    addSpacePrefix: spm && flag('tokenizer.ggml.add_space_prefix', true),
    stripAfter: phi3(file) ? stripAfterSpecials(tokens, tokenTypes) : undefined,
    chatTemplate: has('tokenizer.chat_template') ? metaString(file, 'tokenizer.chat_template') : '',
  });
}

/** llama.cpp recognises Phi-3 by its name alone (the GGUF holds no per-token attributes). */
function phi3(file: GgufFile): boolean {
  const name = file.metadata.has('general.name') ? metaString(file, 'general.name').toLowerCase() : '';
  return name.includes('phi-3') || name.includes('phi3');
}

/** Phi-3's special tokens swallow the whitespace after them, except these three; `</s>` does too. */
function stripAfterSpecials(tokens: readonly string[], types: readonly number[]): number[] {
  const keep = new Set(['<unk>', '<s>', '<|endoftext|>']);
  const special = (type: number | undefined) => type === CONTROL || type === USER_DEFINED || type === UNKNOWN;
  return [...tokens.keys()].filter((id) => (special(types[id]) && !keep.has(tokens[id]!)) || tokens[id] === '</s>');
}

/** End of text plus every control token that ends a turn. */
export function stopTokens(tokenizer: TokenizerJson): number[] {
  const stops = new Set([tokenizer.eos]);
  for (const [id, token] of tokenizer.tokens.entries()) {
    if (tokenizer.tokenTypes[id] === CONTROL && END_OF_TURN.includes(token)) stops.add(id);
  }
  return [...stops].slice(0, 16);
}

/**
 * A Hugging Face `tokenizer.json` and `tokenizer_config.json` as the GGUF tokenizer metadata
 * llama.cpp's converter writes, so tokenizer-json.ts makes the package's tokenizer from either
 * input. Two kinds are taken:
 * - byte-level BPE (`model.type` BPE with a ByteLevel pre-tokenizer): `gpt2`, its pre-tokenizer
 *   recognised from the split regex HF states (llama.cpp recognises it by hashing a test text's
 *   ids instead, which needs the tokenizer running);
 * - SentencePiece converted to BPE (`byte_fallback`, `▁` for spaces): `llama`, each token scored
 *   by its merge's rank, since llama.cpp's SentencePiece merges the highest-scoring pair first
 *   and HF's BPE the lowest-ranked merge.
 */
import type { GgufValue } from '../gguf';

const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;
const UNUSED = 5;
const BYTE = 6;

/** HF split regexes and llama.cpp's pre-tokenizer names for them. */
const SPLIT_PATTERNS: Record<string, string> = {
  [String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`]:
    'llama3',
  [String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`]: 'qwen2',
  [String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`]: 'gpt-2',
};

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A pipeline's steps (pre-tokenizers, normalizers, post-processors), flattened out of any Sequence. */
function steps(step: unknown): Json[] {
  if (!isRecord(step)) return [];
  if (step.type !== 'Sequence') return [step];
  const inner = step.pretokenizers ?? step.normalizers ?? step.processors;
  return Array.isArray(inner) ? inner.flatMap(steps) : [];
}

/** llama.cpp's pre-tokenizer name for a byte-level pre-tokenizer, or an error saying what was found. */
export function preTokenizerName(pre: unknown): string {
  const found = steps(pre);
  const split = found.find((s) => s.type === 'Split');
  const byteLevel = found.find((s) => s.type === 'ByteLevel');
  const digits = found.find((s) => s.type === 'Digits');
  const pattern = split && isRecord(split.pattern) ? split.pattern.Regex : undefined;
  if (typeof pattern === 'string' && SPLIT_PATTERNS[pattern] && byteLevel?.use_regex === false) return SPLIT_PATTERNS[pattern];
  // GPT-2's own regex inside ByteLevel; SmolLM and StarCoder split digits one by one first.
  if (!split && byteLevel && byteLevel.use_regex !== false) return digits?.individual_digits === true ? 'smollm' : 'gpt-2';
  throw new Error(
    `tokenizer.json's pre-tokenizer is not one Meshwork recognises (${found.map((s) => String(s.type)).join(', ')}${
      typeof pattern === 'string' ? `, regex ${pattern}` : ''
    }); it recognises llama3, qwen2, gpt-2 and smollm`,
  );
}

function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return isRecord(value) && typeof value.content === 'string' ? value.content : undefined;
}

function chatTemplate(config: Json, jinja: string | undefined): string | undefined {
  const stated = config.chat_template;
  if (typeof stated === 'string') return stated;
  // Several named templates: llama.cpp takes the default one.
  if (Array.isArray(stated)) return tokenText(stated.find((t) => isRecord(t) && t.name === 'default')?.template);
  return jinja;
}

export interface HfTokenizerInput {
  tokenizer: Json;
  tokenizerConfig: Json;
  /** config.json: its token ids when tokenizer_config.json names none, and the vocabulary's padded size. */
  config: Json;
  /** chat_template.jinja, which newer checkpoints ship beside tokenizer_config.json. */
  chatTemplateFile?: string;
}

/** The GGUF `tokenizer.*` metadata for an HF tokenizer. */
export function hfTokenizerMetadata({ tokenizer, tokenizerConfig, config, chatTemplateFile }: HfTokenizerInput): Map<string, GgufValue> {
  const model = tokenizer.model;
  if (!isRecord(model) || model.type !== 'BPE' || !isRecord(model.vocab))
    throw new Error(
      `tokenizer.json's model is ${isRecord(model) ? String(model.type) : 'missing'}; Meshwork packs BPE tokenizers (byte-level, or SentencePiece with byte fallback)`,
    );
  const spm = model.byte_fallback === true;
  const tokens: string[] = [];
  for (const [text, id] of Object.entries(model.vocab)) {
    if (!Number.isInteger(id) || (id as number) < 0 || (id as number) > 1_000_000)
      throw new Error(`tokenizer.json gives ${text} the id ${String(id)}`);
    tokens[id as number] = text;
  }
  const types: number[] = [];
  const added = Array.isArray(tokenizer.added_tokens) ? tokenizer.added_tokens.filter(isRecord) : [];
  for (const token of added) {
    if (!Number.isInteger(token.id) || typeof token.content !== 'string')
      throw new Error('tokenizer.json has an added token without id or content');
    tokens[token.id as number] = token.content;
    types[token.id as number] = token.special === true ? CONTROL : USER_DEFINED;
  }
  // The embedding often has more rows than the tokenizer has tokens: llama.cpp pads with unused tokens.
  const declared =
    typeof (config.text_config as Json | undefined)?.vocab_size === 'number' ? (config.text_config as Json).vocab_size : config.vocab_size;
  const size = Math.max(tokens.length, typeof declared === 'number' ? declared : 0);
  for (let id = 0; id < size; id++) {
    if (tokens[id] === undefined) {
      tokens[id] = `[PAD${id}]`;
      types[id] = UNUSED;
    }
    types[id] ??= spm && /^<0x[0-9A-Fa-f]{2}>$/.test(tokens[id]!) ? BYTE : NORMAL;
  }
  const merges = (Array.isArray(model.merges) ? model.merges : []).map((merge) => (Array.isArray(merge) ? merge.join(' ') : String(merge)));

  const metadata = new Map<string, GgufValue>([
    ['tokenizer.ggml.model', spm ? 'llama' : 'gpt2'],
    ['tokenizer.ggml.tokens', tokens],
    ['tokenizer.ggml.token_type', types],
  ]);
  if (spm) {
    const index = new Map(tokens.map((token, id) => [token, id]));
    const scores = tokens.map(() => -1e9);
    for (const [rank, merge] of merges.entries()) {
      const id = index.get(merge.replace(' ', ''));
      if (id !== undefined && scores[id] === -1e9) scores[id] = 0 - rank;
    }
    metadata.set('tokenizer.ggml.scores', scores);
    const normalizers = steps(tokenizer.normalizer);
    metadata.set(
      'tokenizer.ggml.add_space_prefix',
      normalizers.some((n) => n.type === 'Prepend') ||
        steps(tokenizer.pre_tokenizer).some((p) => p.prepend_scheme === 'first' || p.prepend_scheme === 'always'),
    );
  } else {
    metadata.set('tokenizer.ggml.merges', merges);
    metadata.set('tokenizer.ggml.pre', preTokenizerName(tokenizer.pre_tokenizer));
  }
  const idOf = (key: string): number | undefined => {
    const text = tokenText(tokenizerConfig[key]);
    if (text !== undefined) {
      const id = tokens.indexOf(text);
      if (id >= 0) return id;
    }
    const stated = config[`${key}_id`];
    const first = Array.isArray(stated) ? stated[0] : stated;
    return typeof first === 'number' ? first : undefined;
  };
  // SentencePiece's own vocabulary marks its unknown token as such, not as a control token.
  const unknown = spm ? idOf('unk_token') : undefined;
  if (unknown !== undefined && types[unknown] === CONTROL) types[unknown] = UNKNOWN;
  for (const [key, gguf] of [
    ['bos_token', 'bos_token_id'],
    ['eos_token', 'eos_token_id'],
    ['unk_token', 'unknown_token_id'],
    ['pad_token', 'padding_token_id'],
  ] as const) {
    const id = idOf(key);
    if (id !== undefined) metadata.set(`tokenizer.ggml.${gguf}`, id);
  }
  for (const flag of ['add_bos_token', 'add_eos_token'] as const) {
    if (typeof tokenizerConfig[flag] === 'boolean') metadata.set(`tokenizer.ggml.${flag}`, tokenizerConfig[flag]);
  }
  // Llama 3 adds its BOS through a post-processor template rather than add_bos_token.
  const post = tokenizer.post_processor;
  if (!metadata.has('tokenizer.ggml.add_bos_token')) {
    const single = steps(post).find((p) => p.type === 'TemplateProcessing')?.single;
    const first = Array.isArray(single) && isRecord(single[0]) ? single[0] : undefined;
    if (first) metadata.set('tokenizer.ggml.add_bos_token', isRecord(first.SpecialToken));
  }
  const template = chatTemplate(tokenizerConfig, chatTemplateFile);
  if (template) metadata.set('tokenizer.chat_template', template);
  return metadata;
}

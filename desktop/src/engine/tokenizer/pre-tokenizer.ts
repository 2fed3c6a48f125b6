/**
 * Splits text into the pieces byte-level BPE merges within, as llama.cpp does for each
 * `tokenizer.ggml.pre` name (llama-vocab.cpp): a list of patterns applied in turn, each cutting
 * every piece into its matches and the text between them (which stays a piece of its own).
 *
 * Every pattern is linear in the text: the only backtracking is over one whitespace run, given
 * back once by the match that ends it. `\s` is Unicode's White_Space, as llama.cpp's tables
 * have it (JavaScript's `\s` adds U+FEFF and lacks U+0085).
 */

const S = String.raw`\t-\r \x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000`;
const CONTRACTIONS = String.raw`'s|'t|'re|'ve|'m|'ll|'d`;
const ANY_CASE_CONTRACTIONS = String.raw`'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD]`;
const WHITESPACE_TAIL = String.raw`[${S}]+(?![^${S}])|[${S}]+`;

/** GPT-2's pattern. */
const GPT2 = String.raw`${CONTRACTIONS}| ?\p{L}+| ?\p{N}+| ?[^${S}\p{L}\p{N}]+|${WHITESPACE_TAIL}`;
/** Llama 3's: letters may take one leading symbol, numbers go in threes, newlines end symbol runs. */
const llama3Like = (numbers: string) =>
  String.raw`${ANY_CASE_CONTRACTIONS}|[^\r\n\p{L}\p{N}]?\p{L}+|${numbers}| ?[^${S}\p{L}\p{N}]+[\r\n]*|[${S}]*[\r\n]+|${WHITESPACE_TAIL}`;
const LLAMA3 = llama3Like(String.raw`\p{N}{1,3}`);
const QWEN2 = llama3Like(String.raw`\p{N}`);
/** Tekken (Mistral Nemo) and GPT-4o: words split at case changes. */
const UPPER_THEN_LOWER = String.raw`[^\r\n\p{L}\p{N}]?((?=\p{L})[^a-z])*((?=\p{L})[^A-Z])+`;
const LOWER_AFTER_UPPER = String.raw`[^\r\n\p{L}\p{N}]?((?=\p{L})[^a-z])+((?=\p{L})[^A-Z])*`;
const TEKKEN = String.raw`${UPPER_THEN_LOWER}|${LOWER_AFTER_UPPER}|\p{N}| ?[^${S}\p{L}\p{N}]+[\r\n/]*|[${S}]*[\r\n]+|${WHITESPACE_TAIL}`;
const GPT4O = String.raw`${UPPER_THEN_LOWER}(?:${ANY_CASE_CONTRACTIONS})?|${LOWER_AFTER_UPPER}(?:${ANY_CASE_CONTRACTIONS})?|\p{N}{1,3}| ?[^${S}\p{L}\p{N}]+[\r\n/]*|[${S}]*[\r\n]+|${WHITESPACE_TAIL}`;
const CJK = '[\u4E00-\u9FA5\u0800-\u4E00\uAC00-\uD7FF]+';

export interface PreTokenizer {
  patterns: readonly RegExp[];
  /** llama.cpp's `ignore_merges`: a piece that is a token as a whole is that token, unmerged. */
  wholeWords: boolean;
}

const compile = (patterns: string[], wholeWords = false): PreTokenizer => ({
  patterns: patterns.map((pattern) => new RegExp(pattern, 'gu')),
  wholeWords,
});

const KINDS = {
  gpt2: compile([GPT2]),
  digits: compile([String.raw`\p{N}`, GPT2]),
  default: compile([String.raw`[\p{P}$+<=>^~|]+`, GPT2, String.raw`\p{N}+`, '[0-9][0-9][0-9]']),
  falcon: compile([String.raw`[\p{P}$+<=>^~|\x60]+`, GPT2, '[0-9][0-9][0-9]']),
  llama3: compile([LLAMA3], true),
  llama3Merged: compile([LLAMA3]),
  qwen2: compile([QWEN2]),
  tekken: compile([TEKKEN], true),
  gpt4o: compile([GPT4O]),
  deepseekCoder: compile(['[\r\n]', String.raw`[${S}]?\p{L}+`, String.raw`[${S}]?\p{P}+`, CJK, String.raw`\p{N}`]),
  bloom: compile([String.raw` ?[^(${S}|.,!?…。，、।۔،)]+`]),
};

/** llama.cpp's names for each (llama_vocab::impl::load), the ones byte-level BPE models use. */
const BY_NAME: Record<string, PreTokenizer> = {
  default: KINDS.default,
  ...Object.fromEntries(
    [
      'gpt-2',
      'phi-2',
      'mpt',
      'olmo',
      'jais',
      'exaone4',
      'jina-es',
      'jina-de',
      'jina-v2-es',
      'jina-v2-de',
      'gigachat',
      'mellum',
      'trillion',
      'granite-docling',
    ].map((name) => [name, KINDS.gpt2]),
  ),
  ...Object.fromEntries(
    ['smollm', 'starcoder', 'refact', 'command-r', 'codeshell', 'exaone', 'minerva-7b', 'mellum2'].map((name) => [name, KINDS.digits]),
  ),
  ...Object.fromEntries(
    ['llama3', 'llama-v3', 'llama-bpe', 'falcon3', 'falcon-h1', 'pixtral', 'midm-2.0', 'lfm2'].map((name) => [name, KINDS.llama3]),
  ),
  ...Object.fromEntries(['dbrx', 'smaug-bpe', 'chatglm-bpe', 'glm4'].map((name) => [name, KINDS.llama3Merged])),
  ...Object.fromEntries(
    ['qwen2', 'deepseek-r1-qwen', 'stablelm2', 'megrez', 'hunyuan', 'solar-open', 'kormo', 'grok-2'].map((name) => [name, KINDS.qwen2]),
  ),
  ...Object.fromEntries(['gpt-4o', 'llama4', 'minimax-m2'].map((name) => [name, KINDS.gpt4o])),
  tekken: KINDS.tekken,
  falcon: KINDS.falcon,
  'deepseek-coder': KINDS.deepseekCoder,
  bloom: KINDS.bloom,
  'poro-chat': KINDS.bloom,
  'gpt3-finnish': KINDS.bloom,
};

/** The pre-tokenizer llama.cpp names `name`, or undefined when it is not one Meshwork has. */
export function preTokenizerNamed(name: string): PreTokenizer | undefined {
  return Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined;
}

export const PRE_TOKENIZER_NAMES: readonly string[] = Object.keys(BY_NAME);

/** The pieces of `text`, in order; together they are the text. */
export function preTokenize(text: string, pre: PreTokenizer): string[] {
  let pieces = [text];
  for (const pattern of pre.patterns) {
    const next: string[] = [];
    for (const piece of pieces) {
      let last = 0;
      // Pushed one by one: spreading hundreds of thousands of pieces into push() overflows the stack.
      for (const match of piece.matchAll(pattern)) {
        if (match[0].length === 0) continue;
        if (match.index > last) next.push(piece.slice(last, match.index));
        next.push(match[0]);
        last = match.index + match[0].length;
      }
      if (last < piece.length) next.push(piece.slice(last));
    }
    pieces = next;
  }
  return pieces;
}

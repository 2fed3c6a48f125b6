/**
 * Splits text into the pieces byte-level BPE merges within, as llama.cpp does for each
 * `tokenizer.ggml.pre` name (llama-vocab.cpp): a list of patterns applied in turn, each cutting
 * every piece into its matches and the text between them (which stays a piece of its own).
 *
 * Every pattern is linear in the text: the only backtracking is over one whitespace run, given
 * back once by the match that ends it. `\s` is Unicode's White_Space, as llama.cpp's tables
 * have it (JavaScript's `\s` adds U+FEFF and lacks U+0085).
 *
 * Speed: a piece is cut by `match` (when the matches tile it, as each family's main pattern's
 * do) or `split` on the pattern in a capture group, both native loops that make no match object
 * per match (a megabyte of digits is a million matches); a piece of one character stays whole.
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
// Groups that capture nothing: `split` returns what a pattern's groups capture.
const UPPER_THEN_LOWER = String.raw`[^\r\n\p{L}\p{N}]?(?:(?=\p{L})[^a-z])*(?:(?=\p{L})[^A-Z])+`;
const LOWER_AFTER_UPPER = String.raw`[^\r\n\p{L}\p{N}]?(?:(?=\p{L})[^a-z])+(?:(?=\p{L})[^A-Z])*`;
const TEKKEN = String.raw`${UPPER_THEN_LOWER}|${LOWER_AFTER_UPPER}|\p{N}| ?[^${S}\p{L}\p{N}]+[\r\n/]*|[${S}]*[\r\n]+|${WHITESPACE_TAIL}`;
const GPT4O = String.raw`${UPPER_THEN_LOWER}(?:${ANY_CASE_CONTRACTIONS})?|${LOWER_AFTER_UPPER}(?:${ANY_CASE_CONTRACTIONS})?|\p{N}{1,3}| ?[^${S}\p{L}\p{N}]+[\r\n/]*|[${S}]*[\r\n]+|${WHITESPACE_TAIL}`;
const CJK = '[\u4E00-\u9FA5\u0800-\u4E00\uAC00-\uD7FF]+';

/** One pattern: global for `match`, and in one capture group for `split`. */
export interface Pattern {
  global: RegExp;
  split: RegExp;
  /** Whether its matches should tile any text (checked on each piece): then `match` alone cuts it. */
  tiles: boolean;
}

export interface PreTokenizer {
  patterns: readonly Pattern[];
  /** llama.cpp's `ignore_merges`: a piece that is a token as a whole is that token, unmerged. */
  wholeWords: boolean;
}

function pattern(source: string): Pattern {
  const split = new RegExp(`(${source})`, 'u');
  // `split` also returns what inner groups capture: the table's patterns must have none.
  if (new RegExp(`${split.source}|`, 'u').exec('')!.length !== 2) throw new Error(`A pre-tokenizer pattern captures a group: ${source}`);
  // Ending in the whitespace tail, it has an alternative for letters, numbers, other symbols and whitespace.
  return { global: new RegExp(source, 'gu'), split, tiles: source.endsWith(WHITESPACE_TAIL) };
}

/** A pre-tokenizer of these patterns, applied in turn. */
export const compile = (patterns: string[], wholeWords = false): PreTokenizer => ({ patterns: patterns.map(pattern), wholeWords });

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
    for (const piece of pieces) cut(piece, pattern, next);
    pieces = next;
  }
  return pieces;
}

/** Pushes onto `out` the matches of `pattern` in `piece` and the non-empty text between them. */
function cut(piece: string, pattern: Pattern, out: string[]): void {
  // One character is one piece whether the pattern matches it or not.
  if (piece.length <= 1) {
    if (piece.length === 1) out.push(piece);
    return;
  }
  if (pattern.tiles) {
    const matches = piece.match(pattern.global) ?? [];
    // Matches that tile the piece are all its pieces (an empty match, if any, adds nothing).
    let covered = 0;
    for (const match of matches) covered += match.length;
    if (covered === piece.length) {
      // Pushed one by one: spreading hundreds of thousands of pieces into push() overflows the stack.
      for (const match of matches) if (match.length > 0) out.push(match);
      return;
    }
  }
  // Text between matches: `split` gives [between, match, between, …]. An empty match there
  // would cut where `matchAll` does not (none of the table's patterns can match empty).
  const parts = piece.split(pattern.split);
  for (let i = 1; i < parts.length; i += 2) if (parts[i]!.length === 0) return cutExactly(piece, pattern, out);
  for (const part of parts) if (part.length > 0) out.push(part);
}

/** The same cut, one match object at a time. */
function cutExactly(piece: string, pattern: Pattern, out: string[]): void {
  let last = 0;
  for (const match of piece.matchAll(pattern.global)) {
    if (match[0].length === 0) continue;
    if (match.index > last) out.push(piece.slice(last, match.index));
    out.push(match[0]);
    last = match.index + match[0].length;
  }
  if (last < piece.length) out.push(piece.slice(last));
}

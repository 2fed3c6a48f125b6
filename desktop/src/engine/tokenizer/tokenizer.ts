/**
 * The model's tokenizer, as its GGUF describes it and llama.cpp applies it, read from the
 * package's `tokenizer.json`: byte-level BPE (ranked merges within the pieces of the model's
 * pre-tokenizer) or SentencePiece (merges by score over the whole text, byte fallback). Special
 * tokens written in the text (`<|im_start|>`) are found before anything is split. Cost is
 * O(n log n) in the text; a long text is tokenised on a thread of its own (`encodeAsync`).
 */
import { TokenizerJson } from '@meshwork/contracts';
import { Merges } from './bpe';
import { bytesToSymbols, symbolsToBytes } from './byte-level';
import { preTokenize, preTokenizerNamed, type PreTokenizer } from './pre-tokenizer';
import { SpecialTokens } from './special-tokens';
import { SentencePiece } from './spm';
import { TokenizerThread } from './tokenizer-thread';

const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;
const BYTE = 6;
const CACHE_LIMIT = 50_000;
/** Pieces cached by their text: words recur, long runs rarely do and would hold memory. */
const CACHED_PIECE_LENGTH = 256;
/** Up to this many characters a text is tokenised in place (a few milliseconds at worst). */
const INLINE_CHARACTERS = 8192;
const BYTE_CHARS = bytesToSymbols(Uint8Array.from({ length: 256 }, (_, byte) => byte));
const UTF8 = new TextEncoder();
const ESCAPED_SPACE = /\u2581/g;

/** Byte-level BPE: ranked merges within each piece of the pre-tokenizer. */
class BytePairs {
  private readonly merges: Merges;
  /** Each merge symbol's token id, -1 for a symbol the vocabulary lacks. */
  private readonly symbolTokens: Int32Array;
  /** Each byte's token id: what a symbol the vocabulary lacks falls back to. */
  private readonly byteTokens: Int32Array;
  private readonly cache = new Map<string, number[]>();

  constructor(
    private readonly ids: ReadonlyMap<string, number>,
    merges: readonly string[],
    private readonly pre: PreTokenizer,
  ) {
    this.merges = new Merges(BYTE_CHARS, merges);
    this.symbolTokens = Int32Array.from(this.merges.symbols, (symbol) => ids.get(symbol) ?? -1);
    this.byteTokens = Int32Array.from(BYTE_CHARS, (char) => ids.get(char) ?? 0);
  }

  encode(text: string, out: number[]): void {
    // Pushed one by one: spreading a long piece's ids into push() overflows the stack.
    for (const piece of preTokenize(text, this.pre)) for (const id of this.encodePiece(piece)) out.push(id);
  }

  private encodePiece(piece: string): number[] {
    const cacheable = piece.length <= CACHED_PIECE_LENGTH;
    const cached = cacheable ? this.cache.get(piece) : undefined;
    if (cached) return cached;
    const bytes = UTF8.encode(piece);
    const whole = this.pre.wholeWords ? this.ids.get(bytesToSymbols(bytes).join('')) : undefined;
    const ids: number[] = whole === undefined ? [] : [whole];
    if (whole === undefined)
      this.merges.merge(bytes, (symbol, start, end) => {
        const id = this.symbolTokens[symbol]!;
        if (id >= 0) ids.push(id);
        // A symbol the vocabulary lacks falls back to its single bytes (every byte has a token).
        else for (let i = start; i < end; i++) ids.push(this.byteTokens[bytes[i]!]!);
      });
    if (cacheable) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(piece, ids);
    }
    return ids;
  }
}

export class Tokenizer {
  private readonly ids = new Map<string, number>();
  private readonly model: BytePairs | SentencePiece;
  private readonly specials: SpecialTokens;
  /** The most bytes one token stands for: n bytes need at least n / longest tokens. */
  private readonly longestToken: number;
  private thread: TokenizerThread | undefined;
  private readonly tokenBytes: Uint8Array[];

  private constructor(readonly json: TokenizerJson) {
    for (const [id, token] of json.tokens.entries()) if (!this.ids.has(token)) this.ids.set(token, id);
    const types = json.tokenTypes;
    const special = (id: number) => types[id] === CONTROL || types[id] === USER_DEFINED || types[id] === UNKNOWN;
    if (json.model === 'gpt2') {
      const pre = preTokenizerNamed(json.pre);
      if (!pre) throw new Error(`The pre-tokenizer "${json.pre}" is not supported`);
      this.model = new BytePairs(this.ids, json.merges, pre);
      this.tokenBytes = json.tokens.map((token, id) =>
        special(id) ? new TextEncoder().encode(token) : Uint8Array.from(symbolsToBytes(token) ?? []),
      );
    } else {
      if (json.scores?.length !== json.tokens.length)
        throw new Error(`A SentencePiece tokenizer needs a score for each of its ${json.tokens.length} tokens`);
      this.model = new SentencePiece(this.ids, json.scores, json.unknown ?? 0);
      this.tokenBytes = json.tokens.map((token, id) => {
        const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(token);
        if (types[id] === BYTE && byte) return Uint8Array.of(parseInt(byte[1]!, 16));
        return new TextEncoder().encode(special(id) ? token : token.replace(ESCAPED_SPACE, ' '));
      });
    }
    this.specials = new SpecialTokens(json.tokens, types, json.stripAfter);
    this.longestToken = this.tokenBytes.reduce((longest, bytes) => Math.max(longest, bytes.length), 1);
  }

  static fromJson(value: unknown): Tokenizer {
    const parsed = TokenizerJson.safeParse(value);
    if (!parsed.success) throw new Error(`tokenizer.json is not a Meshwork tokenizer: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return new Tokenizer(parsed.data);
  }

  get vocabSize(): number {
    return this.json.tokens.length;
  }

  /**
   * Token ids of `text`, as llama.cpp's `llama_tokenize(text, add_special = true, parse_special)`:
   * with `special` (the default) control tokens written in the text count as themselves.
   */
  encode(text: string, { special = true }: { special?: boolean } = {}): number[] {
    const { addBos, bos, addEos, eos, addSpacePrefix } = this.json;
    const ids: number[] = addBos && bos !== undefined ? [bos] : [];
    let afterSpecial = true;
    for (const fragment of this.specials.split(text, special)) {
      if (typeof fragment === 'number') ids.push(fragment);
      else if (this.model instanceof BytePairs) this.model.encode(fragment, ids);
      // SentencePiece: a space before the text and after each special token, when the model asks.
      else this.model.encode(((addSpacePrefix && afterSpecial ? ' ' : '') + fragment).replaceAll(' ', '\u2581'), ids);
      afterSpecial = typeof fragment === 'number';
    }
    if (addEos) ids.push(eos);
    return ids;
  }

  /**
   * `encode`, with a long text tokenised on a worker thread, so a request's prompt never holds
   * the event loop from the others. Resolves to the same ids.
   */
  async encodeAsync(text: string, options: { special?: boolean } = {}): Promise<number[]> {
    if (text.length <= INLINE_CHARACTERS) return this.encode(text, options);
    this.thread ??= new TokenizerThread(this.json);
    return this.thread.encode(text, options.special ?? true);
  }

  /** A bound found without tokenising: `text` is at least this many tokens (BOS and EOS included). */
  leastTokens(text: string): number {
    const added = (this.json.addBos && this.json.bos !== undefined ? 1 : 0) + (this.json.addEos ? 1 : 0);
    return added + Math.ceil(Buffer.byteLength(text, 'utf8') / this.longestToken);
  }

  /** Stops the worker thread, if one was started; `encodeAsync` starts another when needed. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.close();
  }

  /** The bytes of a token: UTF-8 of its text, possibly part of a character. */
  bytesOf(id: number): Uint8Array {
    const bytes = this.tokenBytes[id];
    if (!bytes) throw new RangeError(`Token id ${id} is outside the vocabulary of ${this.vocabSize}`);
    return bytes;
  }

  decode(ids: readonly number[]): string {
    const stream = this.decoder();
    return ids.map((id) => stream.push(id)).join('') + stream.flush();
  }

  /** A decoder that turns ids into text one at a time, holding back bytes of a character not yet whole. */
  decoder(): { push(id: number): string; flush(): string } {
    const utf8 = new TextDecoder('utf-8');
    return {
      push: (id) => utf8.decode(this.bytesOf(id), { stream: true }),
      flush: () => utf8.decode(),
    };
  }
}

/**
 * Byte-level BPE, as the model's GGUF describes it (tokens, token types, ranked merges, its
 * pre-tokenizer), read from the package's `tokenizer.json`. Control and user-defined tokens
 * (`<|im_start|>`) are matched verbatim in text before anything is split. Cost is O(n log n)
 * in the text (see `Merges`); a long text is tokenised on a thread of its own (`encodeAsync`).
 */
import { TokenizerJson } from '@meshwork/contracts';
import { Merges } from './bpe';
import { bytesToSymbols, symbolsToBytes } from './byte-level';
import { isSupportedPreTokenizer, preTokenize } from './pre-tokenizer';
import { TokenizerThread } from './tokenizer-thread';

const CONTROL = 3;
const USER_DEFINED = 4;
const CACHE_LIMIT = 50_000;
/** Pieces cached by their text: words recur, long runs rarely do and would hold memory. */
const CACHED_PIECE_LENGTH = 256;
/** Up to this many characters a text is tokenised in place (a few milliseconds at worst). */
const INLINE_CHARACTERS = 8192;
const BYTE_CHARS = bytesToSymbols(Uint8Array.from({ length: 256 }, (_, byte) => byte));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Tokenizer {
  private readonly ids = new Map<string, number>();
  private readonly merges: Merges;
  /** Each merge symbol's token id, -1 for a symbol the vocabulary lacks. */
  private readonly symbolTokens: Int32Array;
  /** Each byte's token id: what a symbol the vocabulary lacks falls back to. */
  private readonly byteTokens: Int32Array;
  /** The most bytes one token stands for: n bytes need at least n / longest tokens. */
  private readonly longestToken: number;
  private thread: TokenizerThread | undefined;
  private readonly specials = new Map<string, number>();
  private readonly specialPattern: RegExp | undefined;
  private readonly tokenBytes: (Uint8Array | undefined)[];
  private readonly cache = new Map<string, number[]>();

  private constructor(readonly json: TokenizerJson) {
    if (!isSupportedPreTokenizer(json.pre)) throw new Error(`The pre-tokenizer "${json.pre}" is not supported`);
    for (const [id, token] of json.tokens.entries()) if (!this.ids.has(token)) this.ids.set(token, id);
    this.merges = new Merges(BYTE_CHARS, json.merges);
    this.symbolTokens = Int32Array.from(this.merges.symbols, (symbol) => this.ids.get(symbol) ?? -1);
    this.byteTokens = Int32Array.from(BYTE_CHARS, (char) => this.ids.get(char) ?? 0);
    for (const [id, token] of json.tokens.entries()) {
      const type = json.tokenTypes[id];
      if ((type === CONTROL || type === USER_DEFINED) && token.length > 0) this.specials.set(token, id);
    }
    // Longest first, so a special token that begins another never cuts it short.
    const names = [...this.specials.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.specialPattern = names.length ? new RegExp(`(${names.join('|')})`) : undefined;
    this.tokenBytes = json.tokens.map((token, id) =>
      this.specials.has(token) && this.specials.get(token) === id
        ? new TextEncoder().encode(token)
        : Uint8Array.from(symbolsToBytes(token) ?? []),
    );
    this.longestToken = this.tokenBytes.reduce((longest, bytes) => Math.max(longest, bytes?.length ?? 0), 1);
  }

  static fromJson(value: unknown): Tokenizer {
    const parsed = TokenizerJson.safeParse(value);
    if (!parsed.success) throw new Error(`tokenizer.json is not a Meshwork tokenizer: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return new Tokenizer(parsed.data);
  }

  get vocabSize(): number {
    return this.json.tokens.length;
  }

  /** Token ids of `text`; with `special` (the default) control tokens written in the text count as themselves. */
  encode(text: string, { special = true }: { special?: boolean } = {}): number[] {
    const ids: number[] = this.json.addBos && this.json.bos !== undefined ? [this.json.bos] : [];
    const parts = special && this.specialPattern ? text.split(this.specialPattern) : [text];
    for (const [i, part] of parts.entries()) {
      // split() with a capture group puts the separators at the odd positions.
      if (i % 2 === 1) ids.push(this.specials.get(part)!);
      // Pushed one by one: spreading a long piece's ids into push() overflows the stack.
      else for (const piece of preTokenize(part, this.json.pre)) for (const id of this.encodePiece(piece)) ids.push(id);
    }
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

  /** A bound found without tokenising: `text` is at least this many tokens (BOS included). */
  leastTokens(text: string): number {
    const bos = this.json.addBos && this.json.bos !== undefined ? 1 : 0;
    return bos + Math.ceil(Buffer.byteLength(text, 'utf8') / this.longestToken);
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

  private encodePiece(piece: string): number[] {
    const cacheable = piece.length <= CACHED_PIECE_LENGTH;
    const cached = cacheable ? this.cache.get(piece) : undefined;
    if (cached) return cached;
    const bytes = new TextEncoder().encode(piece);
    const ids: number[] = [];
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

/**
 * Byte-level BPE, as the model's GGUF describes it (tokens, token types, ranked merges, its
 * pre-tokenizer), read from the package's `tokenizer.json`. Control and user-defined tokens
 * (`<|im_start|>`) are matched verbatim in text before anything is split.
 */
import { TokenizerJson } from '@meshwork/contracts';
import { bytesToSymbols, symbolsToBytes } from './byte-level';
import { isSupportedPreTokenizer, preTokenize } from './pre-tokenizer';

const CONTROL = 3;
const USER_DEFINED = 4;
const CACHE_LIMIT = 50_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Tokenizer {
  private readonly ids = new Map<string, number>();
  private readonly ranks = new Map<string, number>();
  private readonly specials = new Map<string, number>();
  private readonly specialPattern: RegExp | undefined;
  private readonly tokenBytes: (Uint8Array | undefined)[];
  private readonly cache = new Map<string, number[]>();

  private constructor(readonly json: TokenizerJson) {
    if (!isSupportedPreTokenizer(json.pre)) throw new Error(`The pre-tokenizer "${json.pre}" is not supported`);
    for (const [id, token] of json.tokens.entries()) if (!this.ids.has(token)) this.ids.set(token, id);
    for (const [rank, merge] of json.merges.entries()) this.ranks.set(merge, rank);
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
      else for (const piece of preTokenize(part, this.json.pre)) ids.push(...this.encodePiece(piece));
    }
    return ids;
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
    const cached = this.cache.get(piece);
    if (cached) return cached;
    const symbols = bytesToSymbols(new TextEncoder().encode(piece));
    // Merge the best-ranked adjacent pair until no pair is in the merge list.
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < symbols.length - 1; i++) {
        const rank = this.ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) break;
      symbols.splice(best, 2, symbols[best]! + symbols[best + 1]!);
    }
    const ids = symbols.flatMap((symbol) => {
      const id = this.ids.get(symbol);
      if (id !== undefined) return [id];
      // A symbol the vocabulary lacks falls back to its single bytes (every byte has a token).
      return [...symbol].map((char) => this.ids.get(char) ?? 0);
    });
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(piece, ids);
    return ids;
  }
}

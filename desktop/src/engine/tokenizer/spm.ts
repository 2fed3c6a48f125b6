/**
 * SentencePiece tokenisation by scores, as llama.cpp's `llm_tokenizer_spm` does it: the text's
 * characters are the first symbols; again and again the adjacent pair whose concatenation is a
 * token with the highest score (leftmost on a tie) is merged. A character no token covers falls
 * back to its UTF-8 bytes (`<0x41>`). Spaces are `▁` (U+2581) in the vocabulary.
 *
 * The pairs wait in a heap, so each merge costs O(log n), and a pair longer than the longest
 * token is never looked up: a text of any length costs O(n log n).
 */

/** Candidate pairs, best first: the highest score, then the leftmost. */
class PairHeap {
  private score = new Float64Array(64);
  private left = new Int32Array(64);
  private right = new Int32Array(64);
  private length = new Int32Array(64);
  size = 0;

  private before(a: number, b: number): boolean {
    return this.score[a]! > this.score[b]! || (this.score[a] === this.score[b] && this.left[a]! < this.left[b]!);
  }

  private swap(a: number, b: number): void {
    for (const array of [this.score, this.left, this.right, this.length]) [array[a], array[b]] = [array[b]!, array[a]!];
  }

  push(score: number, left: number, right: number, length: number): void {
    if (this.size === this.score.length) {
      const grow = <T extends Float64Array | Int32Array>(array: T): T => {
        const grown = new (array.constructor as new (n: number) => T)(array.length * 2);
        grown.set(array);
        return grown;
      };
      [this.score, this.left, this.right, this.length] = [grow(this.score), grow(this.left), grow(this.right), grow(this.length)];
    }
    let i = this.size++;
    [this.score[i], this.left[i], this.right[i], this.length[i]] = [score, left, right, length];
    while (i > 0 && this.before(i, (i - 1) >> 1)) {
      this.swap(i, (i - 1) >> 1);
      i = (i - 1) >> 1;
    }
  }

  /** Removes the best pair: [left, right, length]. */
  pop(): [number, number, number] {
    const top: [number, number, number] = [this.left[0]!, this.right[0]!, this.length[0]!];
    this.size--;
    this.swap(0, this.size);
    let i = 0;
    for (;;) {
      let best = i;
      for (const child of [2 * i + 1, 2 * i + 2]) if (child < this.size && this.before(child, best)) best = child;
      if (best === i) return top;
      this.swap(i, best);
      i = best;
    }
  }
}

export class SentencePiece {
  private readonly longest: number;
  private readonly byteTokens: Int32Array;

  /** `ids` maps every token's text to its id; `unknown` stands for a byte the vocabulary lacks. */
  constructor(
    private readonly ids: ReadonlyMap<string, number>,
    private readonly scores: readonly number[],
    unknown: number,
  ) {
    let longest = 1;
    for (const token of ids.keys()) longest = Math.max(longest, token.length);
    this.longest = longest;
    // llama.cpp's byte_to_token: `<0xNN>`, else the byte as a character of its own.
    this.byteTokens = Int32Array.from({ length: 256 }, (_, byte) => {
      const hex = `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`;
      return ids.get(hex) ?? ids.get(String.fromCharCode(byte)) ?? unknown;
    });
  }

  /** The ids of `text` (spaces already written as `▁`), pushed onto `out`. */
  encode(text: string, out: number[]): void {
    // Symbols are named by the UTF-16 offset they start at; `end[i]` is where symbol i ends,
    // and -1 marks one merged into the symbol before it.
    const n = text.length;
    if (n === 0) return;
    const end = new Int32Array(n).fill(-1);
    const prev = new Int32Array(n).fill(-1);
    let last = -1;
    for (let i = 0; i < n;) {
      const size = text.codePointAt(i)! > 0xffff ? 2 : 1;
      end[i] = i + size;
      prev[i] = last;
      last = i;
      i += size;
    }
    const heap = new PairHeap();
    const consider = (left: number) => {
      if (left < 0) return;
      const right = end[left]!;
      if (right >= n) return;
      const length = end[right]! - left;
      if (length > this.longest) return;
      const id = this.ids.get(text.slice(left, left + length));
      if (id !== undefined) heap.push(this.scores[id] ?? 0, left, right, length);
    };
    for (let i = 0; i < n; i = end[i]!) consider(i);
    while (heap.size > 0) {
      const [left, right, length] = heap.pop();
      // Stale once either side was merged away or grew since the pair was seen.
      if (end[left]! < 0 || end[right]! < 0 || end[right]! - left !== length) continue;
      end[left] = end[right]!;
      end[right] = -1;
      if (end[left]! < n) prev[end[left]!] = left;
      consider(prev[left]!);
      consider(left);
    }
    for (let i = 0; i < n; i = end[i]!) {
      const piece = text.slice(i, end[i]);
      const id = this.ids.get(piece);
      if (id !== undefined) out.push(id);
      else for (const byte of new TextEncoder().encode(piece)) out.push(this.byteTokens[byte]!);
    }
  }
}

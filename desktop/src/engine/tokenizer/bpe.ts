/**
 * Ranked BPE merges applied as llama.cpp applies them: the piece's symbols in a linked list and
 * the candidate pairs in a min-heap by (rank, position), so each merge costs O(log n) rather than
 * a rescan of the piece, and a piece of any length O(n log n). A heap entry is stale once the
 * pair at its position is no longer its merge; it is skipped when popped. The result is that of
 * merging the best-ranked, leftmost pair again and again: the heap pops exactly that pair among
 * the live ones. Pieces are not cut to a bounded length: that would change the ids of long words,
 * and at this cost nothing needs it.
 */

const POSITIONS = 2 ** 32;

/** Merges whose left or right part is empty, or that hold more than one space, never match a symbol. */
function split(merge: string): [string, string] | undefined {
  const space = merge.indexOf(' ');
  if (space <= 0 || space === merge.length - 1 || merge.includes(' ', space + 1)) return undefined;
  return [merge.slice(0, space), merge.slice(space + 1)];
}

/** Candidate pairs, best first: each a key of rank, then the position of its left symbol. */
class PairHeap {
  private keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
  }

  push(rank: number, left: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    // Ranks are below 2^21 and positions below 2^32: the key is exact in a double.
    const key = rank * POSITIONS + left;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[i] = this.keys[parent]!;
      i = parent;
    }
    this.keys[i] = key;
  }

  /** Removes and returns the smallest key. */
  pop(): number {
    const top = this.keys[0]!;
    const last = --this.size;
    const key = this.keys[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= key) break;
      this.keys[i] = this.keys[child]!;
      i = child;
    }
    this.keys[i] = key;
    return top;
  }
}

export class Merges {
  /** Every string a symbol can be: the 256 byte characters and each merge's parts and result. */
  readonly symbols: string[] = [];
  private readonly symbolIds = new Map<string, number>();
  private readonly byteSymbols: Int32Array;
  /** rank → the symbol the merge makes. */
  private readonly results: Int32Array;
  /** Open addressing, linear probing: (left symbol, right symbol) → rank; -1 marks an empty slot. */
  private readonly slotLeft: Int32Array;
  private readonly slotRight: Int32Array;
  private readonly slotRank: Int32Array;
  private readonly mask: number;

  /** `byteChars[b]` is byte b's character in the vocabulary's alphabet; `merges` are "left right", best first. */
  constructor(byteChars: readonly string[], merges: readonly string[]) {
    if (merges.length >= 2 ** 21) throw new RangeError(`${merges.length} merges are more than a tokenizer may have (2^21)`);
    this.byteSymbols = Int32Array.from(byteChars, (char) => this.intern(char));
    let capacity = 16;
    while (capacity < merges.length * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slotLeft = new Int32Array(capacity).fill(-1);
    this.slotRight = new Int32Array(capacity);
    this.slotRank = new Int32Array(capacity);
    this.results = new Int32Array(merges.length).fill(-1);
    for (const [rank, merge] of merges.entries()) {
      const parts = split(merge);
      if (!parts) continue;
      const left = this.intern(parts[0]);
      const right = this.intern(parts[1]);
      this.results[rank] = this.intern(parts[0] + parts[1]);
      // A merge listed twice keeps its later rank, as a map of merges would.
      const slot = this.find(left, right);
      this.slotLeft[slot] = left;
      this.slotRight[slot] = right;
      this.slotRank[slot] = rank;
    }
  }

  /**
   * Merges the bytes of one piece; calls `emit` for each resulting symbol in order with the
   * byte range it covers.
   */
  merge(bytes: Uint8Array, emit: (symbol: number, start: number, end: number) => void): void {
    const n = bytes.length;
    if (n === 0) return;
    // Symbols are named by the byte they start at: its symbol (-1 once merged into the one
    // before), and where the next and previous symbols start.
    const symbol = new Int32Array(n);
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      symbol[i] = this.byteSymbols[bytes[i]!]!;
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    const heap = new PairHeap(n + 16);
    const consider = (left: number) => {
      const right = next[left]!;
      if (right >= n) return;
      const rank = this.rankOf(symbol[left]!, symbol[right]!);
      if (rank >= 0) heap.push(rank, left);
    };
    for (let i = 0; i < n - 1; i++) consider(i);
    while (heap.size > 0) {
      const key = heap.pop();
      const rank = Math.floor(key / POSITIONS);
      const left = key - rank * POSITIONS;
      const right = next[left]!;
      // Stale when the pair at `left` is no longer this merge. When it still is (even if formed
      // anew since), merging it is right: its key is the smallest of every live pair's.
      if (symbol[left]! < 0 || right >= n || this.rankOf(symbol[left]!, symbol[right]!) !== rank) continue;
      const end = next[right]!;
      symbol[left] = this.results[rank]!;
      symbol[right] = -1;
      next[left] = end;
      if (end < n) prev[end] = left;
      if (prev[left]! >= 0) consider(prev[left]!);
      consider(left);
    }
    for (let i = 0; i < n; i = next[i]!) emit(symbol[i]!, i, next[i]!);
  }

  private rankOf(left: number, right: number): number {
    const slot = this.find(left, right);
    return this.slotLeft[slot] === -1 ? -1 : this.slotRank[slot]!;
  }

  /** The slot holding (left, right), or the empty slot where it would go. */
  private find(left: number, right: number): number {
    let hash = Math.imul(left, 0x9e3779b1) ^ right;
    hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
    let slot = (hash ^ (hash >>> 13)) & this.mask;
    while (this.slotLeft[slot] !== -1 && (this.slotLeft[slot] !== left || this.slotRight[slot] !== right)) slot = (slot + 1) & this.mask;
    return slot;
  }

  private intern(text: string): number {
    let id = this.symbolIds.get(text);
    if (id === undefined) {
      id = this.symbols.push(text) - 1;
      this.symbolIds.set(text, id);
    }
    return id;
  }
}

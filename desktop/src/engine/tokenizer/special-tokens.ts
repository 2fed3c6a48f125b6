/**
 * Finds the special tokens written in a text (`<|im_start|>`, `<start_of_turn>`, Gemma's runs
 * of newlines), before anything is split or merged, as llama.cpp's `tokenizer_st_partition`
 * does: control and unknown tokens only when specials are parsed, user-defined ones always.
 * A trie of the tokens' characters finds the longest token at each position, so a text costs
 * at most its length times the longest token, however many tokens there are (Gemma has 6,400).
 */

interface Node {
  next: Map<number, Node>;
  id: number;
  /** Whether the token counts only when specials are parsed (control and unknown tokens). */
  parsedOnly: boolean;
}

const CONTROL = 3;
const UNKNOWN = 2;
const USER_DEFINED = 4;

/** The fragments of a text: strings to tokenise, and the ids of the special tokens between them. */
export type Fragment = string | number;

export class SpecialTokens {
  private readonly root: Node = { next: new Map(), id: -1, parsedOnly: false };
  /** The UTF-16 units tokens begin with, as a class: a native scan finds where to look in the trie. */
  private readonly starts: RegExp | undefined;
  private readonly stripAfter: ReadonlySet<number>;

  /** `stripAfter`: tokens that swallow the whitespace after them (llama.cpp's RSTRIP, set for Phi-3). */
  constructor(tokens: readonly string[], types: readonly number[], stripAfter: readonly number[] = []) {
    this.stripAfter = new Set(stripAfter);
    for (const [id, token] of tokens.entries()) {
      const type = types[id];
      if (token.length === 0 || (type !== CONTROL && type !== UNKNOWN && type !== USER_DEFINED)) continue;
      let node = this.root;
      for (let i = 0; i < token.length; i++) {
        const code = token.charCodeAt(i);
        let child = node.next.get(code);
        if (!child) node.next.set(code, (child = { next: new Map(), id: -1, parsedOnly: false }));
        node = child;
      }
      // The first of a text listed twice wins, as the vocabulary's own lookup does.
      if (node.id < 0) [node.id, node.parsedOnly] = [id, type !== USER_DEFINED];
    }
    // Escaped units, without the u flag: a class of code units, lone surrogates included.
    const units = [...this.root.next.keys()].map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`);
    this.starts = units.length > 0 ? new RegExp(`[${units.join('')}]`, 'g') : undefined;
  }

  get size(): number {
    return this.root.next.size;
  }

  /** The text cut at each special token, leftmost and longest first. */
  split(text: string, parse: boolean): Fragment[] {
    const fragments: Fragment[] = [];
    let start = 0;
    for (let i = 0; this.starts && i < text.length;) {
      this.starts.lastIndex = i;
      if (!this.starts.exec(text)) break;
      i = this.starts.lastIndex - 1;
      let node = this.root.next.get(text.charCodeAt(i));
      let found = -1;
      let foundEnd = i;
      for (let j = i + 1; node; j++) {
        if (node.id >= 0 && (parse || !node.parsedOnly)) [found, foundEnd] = [node.id, j];
        node = j < text.length ? node.next.get(text.charCodeAt(j)) : undefined;
      }
      if (found < 0) {
        i++;
        continue;
      }
      if (i > start) fragments.push(text.slice(start, i));
      fragments.push(found);
      i = foundEnd;
      if (this.stripAfter.has(found)) while (i < text.length && ' \t\n\v\f\r'.includes(text[i]!)) i++;
      start = i;
    }
    if (start < text.length) fragments.push(text.slice(start));
    return fragments;
  }
}

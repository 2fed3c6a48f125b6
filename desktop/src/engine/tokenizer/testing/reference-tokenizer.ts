/**
 * The tokenizer as it was before issue 31, kept only as the tests' reference: a rescan of every
 * pair for every merge (quadratic in a piece) and a per-character digit split. The tokenizer
 * must give the same ids on any text; this one is only fast enough for small ones.
 */
import type { TokenizerJson } from '@meshwork/contracts';
import { bytesToSymbols } from '../byte-level';

const GPT2 = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;
const DIGIT = /\p{N}/u;
const SPLITS_DIGITS = new Set(['smollm', 'starcoder', 'refact', 'codeshell', 'exaone', 'minerva', 'command-r']);

function preTokenize(text: string, name: string): string[] {
  const gpt2Pieces = (run: string) => run.match(GPT2) ?? [];
  if (!SPLITS_DIGITS.has(name)) return gpt2Pieces(text);
  const pieces: string[] = [];
  let run = '';
  for (const char of text) {
    if (DIGIT.test(char)) {
      pieces.push(...gpt2Pieces(run), char);
      run = '';
    } else run += char;
  }
  pieces.push(...gpt2Pieces(run));
  return pieces;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function referenceTokenizer(json: TokenizerJson): (text: string) => number[] {
  const ids = new Map<string, number>();
  for (const [id, token] of json.tokens.entries()) if (!ids.has(token)) ids.set(token, id);
  const ranks = new Map(json.merges.map((merge, rank) => [merge, rank]));
  const specials = new Map<string, number>();
  for (const [id, token] of json.tokens.entries())
    if ((json.tokenTypes[id] === 3 || json.tokenTypes[id] === 4) && token.length > 0) specials.set(token, id);
  const names = [...specials.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const specialPattern = names.length ? new RegExp(`(${names.join('|')})`) : undefined;

  const encodePiece = (piece: string): number[] => {
    const symbols = bytesToSymbols(new TextEncoder().encode(piece));
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < symbols.length - 1; i++) {
        const rank = ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) break;
      symbols.splice(best, 2, symbols[best]! + symbols[best + 1]!);
    }
    return symbols.flatMap((symbol) => {
      const id = ids.get(symbol);
      return id !== undefined ? [id] : [...symbol].map((char) => ids.get(char) ?? 0);
    });
  };

  return (text) => {
    const out: number[] = json.addBos && json.bos !== undefined ? [json.bos] : [];
    const parts = specialPattern ? text.split(specialPattern) : [text];
    for (const [i, part] of parts.entries()) {
      if (i % 2 === 1) out.push(specials.get(part)!);
      else for (const piece of preTokenize(part, json.pre)) out.push(...encodePiece(piece));
    }
    return out;
  };
}

/**
 * Splits text into the pieces BPE merges within, as the model's tokenizer was trained: GPT-2's
 * pattern (contractions, letters, numbers, other symbols, whitespace), and for models that
 * split digits (llama.cpp's "smollm", "starcoder", "refact" pre-tokenizers, Hugging Face's
 * Digits(individual_digits) before ByteLevel) every digit apart first.
 */

const GPT2 = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;
// A capture group, so split() keeps each digit (at the odd positions) between the runs around it.
const DIGIT = /(\p{N})/u;
const SPLITS_DIGITS = new Set(['smollm', 'starcoder', 'refact', 'codeshell', 'exaone', 'minerva', 'command-r']);

export function isSupportedPreTokenizer(name: string): boolean {
  return name === 'default' || name === 'gpt-2' || SPLITS_DIGITS.has(name);
}

/** Linear in the text: the pattern never backtracks further than one whitespace run. */
export function preTokenize(text: string, name: string): string[] {
  if (!SPLITS_DIGITS.has(name)) return text.match(GPT2) ?? [];
  const pieces: string[] = [];
  // Pushed one by one: spreading hundreds of thousands of pieces into push() overflows the stack.
  for (const [i, part] of text.split(DIGIT).entries()) {
    if (i % 2 === 1) pieces.push(part);
    else for (const piece of part.match(GPT2) ?? []) pieces.push(piece);
  }
  return pieces;
}

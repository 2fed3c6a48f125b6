/**
 * Splits text into the pieces BPE merges within, as the model's tokenizer was trained: GPT-2's
 * pattern (contractions, letters, numbers, other symbols, whitespace), and for models that
 * split digits (llama.cpp's "smollm", "starcoder", "refact" pre-tokenizers, Hugging Face's
 * Digits(individual_digits) before ByteLevel) every digit apart first.
 */

const GPT2 = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;
const DIGIT = /\p{N}/u;
const SPLITS_DIGITS = new Set(['smollm', 'starcoder', 'refact', 'codeshell', 'exaone', 'minerva', 'command-r']);

export function isSupportedPreTokenizer(name: string): boolean {
  return name === 'default' || name === 'gpt-2' || SPLITS_DIGITS.has(name);
}

function gpt2Pieces(text: string): string[] {
  return text.match(GPT2) ?? [];
}

export function preTokenize(text: string, name: string): string[] {
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

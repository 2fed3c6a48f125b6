import { bytesToSymbols } from './byte-level';
import { compile, preTokenize, preTokenizerNamed, PRE_TOKENIZER_NAMES, type PreTokenizer } from './pre-tokenizer';
import { referenceTokenizer } from './testing/reference-tokenizer';
import { Tokenizer } from './tokenizer';

/** The 256 byte tokens (id = byte), a few merges, and one control token. */
function tiny(pre: string, extra: { addBos?: boolean } = {}) {
  const bytes = bytesToSymbols(Uint8Array.from({ length: 256 }, (_, i) => i));
  const merged = ['he', 'll', 'hell', 'hello', 'Ġw', '12'];
  const tokens = [...bytes, ...merged, '<|end|>'];
  return Tokenizer.fromJson({
    format: 'meshwork-tokenizer/1',
    model: 'gpt2',
    pre,
    tokens,
    tokenTypes: tokens.map((_, id) => (id === tokens.length - 1 ? 3 : 1)),
    merges: ['h e', 'l l', 'he ll', 'hell o', 'Ġ w', '1 2'],
    bos: 262,
    eos: 262,
    addBos: extra.addBos ?? false,
    chatTemplate: '',
  });
}
const id = (token: string) => 256 + ['he', 'll', 'hell', 'hello', 'Ġw', '12', '<|end|>'].indexOf(token);
const byte = (char: string) => char.charCodeAt(0);

describe('byte-level BPE', () => {
  it('merges by rank: "hello" becomes one token through he + ll → hell → hello', () => {
    const t = tiny('gpt-2');
    expect(t.encode('hello')).toEqual([id('hello')]);
    expect(t.encode('hell')).toEqual([id('hell')]);
    expect(t.encode('help')).toEqual([id('he'), byte('l'), byte('p')]);
  });

  it('a space belongs to the word after it (Ġw), and merges never cross pre-token pieces', () => {
    const t = tiny('gpt-2');
    expect(t.encode('hello world')).toEqual([id('hello'), id('Ġw'), byte('o'), byte('r'), byte('l'), byte('d')]);
  });

  it('the smollm pre-tokenizer keeps every digit apart; gpt-2 lets them merge', () => {
    expect(tiny('smollm').encode('x12')).toEqual([byte('x'), byte('1'), byte('2')]);
    expect(tiny('gpt-2').encode('x12')).toEqual([byte('x'), id('12')]);
  });

  it('control tokens written in the text are themselves, unless special tokens are off', () => {
    const t = tiny('gpt-2');
    expect(t.encode('he<|end|>he')).toEqual([id('he'), id('<|end|>'), id('he')]);
    expect(t.encode('<|end|>', { special: false })).toEqual([...'<|end|>'].map(byte));
    expect(t.decode([id('<|end|>')])).toBe('<|end|>');
  });

  it('adds the BOS token when the model asks for it', () => {
    expect(tiny('gpt-2', { addBos: true }).encode('he')).toEqual([262, id('he')]);
  });

  it('round-trips any text, multi-byte characters and whitespace runs included', () => {
    const t = tiny('smollm');
    const text = "it's  café — 日本 🎉\n\n\tend 42 ";
    expect(t.decode(t.encode(text))).toBe(text);
  });

  it('streams a character split across tokens only once it is whole', () => {
    const t = tiny('gpt-2');
    const ids = t.encode('é🎉'); // 2 + 4 bytes, one token each
    expect(ids).toHaveLength(6);
    const stream = t.decoder();
    expect(ids.map((i) => stream.push(i))).toEqual(['', 'é', '', '', '', '🎉']);
    expect(stream.flush()).toBe('');
  });

  it('refuses a tokenizer.json of another shape, and an unknown pre-tokenizer', () => {
    expect(() => Tokenizer.fromJson({ format: 'other' })).toThrow('tokenizer.json is not a Meshwork tokenizer');
    expect(() => tiny('mystery')).toThrow('The pre-tokenizer "mystery" is not supported');
    expect(() => tiny('gpt-2').decode([9999])).toThrow('Token id 9999 is outside the vocabulary of 263');
  });

  it('a text of 400,000 pieces, or one piece of 400,000 ids, does not overflow the stack', () => {
    const t = tiny('smollm');
    expect(t.encode('x '.repeat(200_000))).toHaveLength(400_000);
    expect(t.encode('\u0001'.repeat(400_000))).toHaveLength(400_000);
  });
});

/** The pre-tokenizer's cut done the plain way: one match object at a time, the text between kept. */
function preTokenizeByMatches(text: string, pre: PreTokenizer): string[] {
  let pieces = [text];
  for (const { global } of pre.patterns) {
    const next: string[] = [];
    for (const piece of pieces) {
      let last = 0;
      for (const match of piece.matchAll(global)) {
        if (match[0].length === 0) continue;
        if (match.index > last) next.push(piece.slice(last, match.index));
        next.push(match[0]);
        last = match.index + match[0].length;
      }
      if (last < piece.length) next.push(piece.slice(last));
    }
    pieces = next;
  }
  return pieces;
}

describe('the pre-tokenizers cut by match and split as they would one match at a time', () => {
  const texts = [
    "Hello, world! It's 2026; we'LL see...  $3.50 <tag> a+b=c ~x^2 | `code`\n",
    'سلام دنیا ۱۲۳ 你好世界 안녕하세요 Ελληνικά CamelCaseWord HTTPServer iPhone',
    "def f(x):\n\treturn x**2  # 🎉🎉 \r\n\n\n   end\u00a0\u2003x\u0085y\ufeffz 'S 'Ve\n",
    '12345678901 1 22 333 4444 ½ Ⅻ',
    '   \n  \n\n  ',
    'x',
    '7',
    '',
    '\ud83c lone surrogates \udf89',
  ];

  it('on every family llama.cpp names, on English, Persian, Chinese, code, emoji, digits and whitespace', () => {
    for (const name of PRE_TOKENIZER_NAMES) {
      const pre = preTokenizerNamed(name)!;
      for (const text of [...texts, texts.join('')]) {
        const pieces = preTokenize(text, pre);
        expect({ name, text, pieces }).toEqual({ name, text, pieces: preTokenizeByMatches(text, pre) });
        expect(pieces.join('')).toBe(text);
      }
    }
  });

  it('also with a pattern that matches the empty text, which split alone would cut differently', () => {
    const pre = compile(['b*', '[0-9]+']);
    for (const text of ['abba cab', 'a1b22c', 'bbb']) expect(preTokenize(text, pre)).toEqual(preTokenizeByMatches(text, pre));
  });

  it('refuses a pattern with a group of its own, which split would return as a piece', () => {
    expect(() => compile(['(a)b'])).toThrow('A pre-tokenizer pattern captures a group: (a)b');
  });
});

/** A byte-level vocabulary grown by random merges of what it holds, some results left out of it. */
function randomTokenizer(seed: number, pre: string) {
  let state = seed;
  const random = (n: number) => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) >>> 8) % n;
  const bytes = bytesToSymbols(Uint8Array.from({ length: 256 }, (_, i) => i));
  // Merges among a few byte characters (letters, space, a digit, the UTF-8 of é and 🎉) so they chain.
  const symbols = [...'abcĠ1', ...bytesToSymbols(new TextEncoder().encode('é🎉'))];
  const tokens = [...bytes];
  const merges: string[] = [];
  for (let i = 0; i < 400; i++) {
    const left = symbols[random(symbols.length)]!;
    const right = symbols[random(symbols.length)]!;
    merges.push(`${left} ${right}`);
    symbols.push(left + right);
    if (random(10) > 0) tokens.push(left + right);
  }
  // Merges that can never match (no space, two spaces), and one listed twice.
  merges.push('ab', 'a  b', merges[3]!);
  tokens.push('<|end|>');
  const json = {
    format: 'meshwork-tokenizer/1',
    model: 'gpt2',
    pre,
    tokens,
    tokenTypes: tokens.map((_, id) => (id === tokens.length - 1 ? 3 : 1)),
    merges,
    eos: tokens.length - 1,
    addBos: false,
    chatTemplate: '',
  } as const;
  return { tokenizer: Tokenizer.fromJson(json), reference: referenceTokenizer(json), random };
}

describe('the heap of merges against the rescan it replaced', () => {
  it('gives the same ids on random text, and on long words, emoji, digit and whitespace runs', () => {
    for (const [seed, pre] of [
      [1, 'smollm'],
      [2, 'gpt-2'],
      [3, 'smollm'],
    ] as const) {
      const { tokenizer, reference, random } = randomTokenizer(seed, pre);
      const alphabet = [...'aaabbbcc   1é🎉\n', '<|end|>'];
      for (let i = 0; i < 300; i++) {
        const text = Array.from({ length: random(120) }, () => alphabet[random(alphabet.length)]).join('');
        expect(tokenizer.encode(text)).toEqual(reference(text));
      }
      for (const text of [
        'a'.repeat(3000),
        'ab'.repeat(1500),
        'abc'.repeat(1000),
        '🎉'.repeat(700),
        '1'.repeat(2000),
        ' '.repeat(2000) + 'a',
        'é'.repeat(1500),
      ])
        expect(tokenizer.encode(text)).toEqual(reference(text));
    }
  });
});

describe('long texts', () => {
  const text = 'hello world 12 '.repeat(20_000);

  it('are tokenised on a thread of their own: the event loop turns meanwhile, and the ids are the same', async () => {
    const t = tiny('smollm');
    let settled = false;
    const ids = t.encodeAsync(text).finally(() => (settled = true));
    await new Promise(setImmediate);
    expect(settled).toBe(false);
    expect(await ids).toEqual(t.encode(text));
    await t.close();
  });

  it('a thread stopped mid-way fails what it held, and the next text starts another', async () => {
    const t = tiny('gpt-2');
    const held = t.encodeAsync(text);
    await t.close();
    await expect(held).rejects.toThrow('The tokenizer thread stopped');
    expect(await t.encodeAsync(text)).toEqual(t.encode(text));
    await t.close();
  });

  it('are bounded below without tokenising: never above the ids they give', () => {
    const t = tiny('smollm', { addBos: true });
    for (const sample of [text, 'hellohellohello', '🎉', '<|end|><|end|>', ''])
      expect(t.leastTokens(sample)).toBeLessThanOrEqual(t.encode(sample).length);
    // The longest token is "hello" or "<|end|>": 7 bytes.
    expect(t.leastTokens('x'.repeat(70))).toBe(11);
  });
});

import { bytesToSymbols } from './byte-level';
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
});

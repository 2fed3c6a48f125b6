import { randomBytes } from 'node:crypto';
import { base64urlDecode, base64urlEncode } from './base64url';

describe('base64url', () => {
  it('spells bytes of every length as Node does, and reads them back', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = randomBytes(length);
      const text = base64urlEncode(bytes);
      expect(text).toBe(bytes.toString('base64url'));
      expect(Buffer.from(base64urlDecode(text)!)).toEqual(bytes);
    }
  });

  it('refuses padding, other alphabets, impossible lengths and leftover bits', () => {
    expect(base64urlDecode('YQ==')).toBeNull();
    expect(base64urlDecode('a+b/')).toBeNull();
    expect(base64urlDecode('abcde')).toBeNull();
    expect(base64urlDecode('YR')).toBeNull(); // 'a' is YQ; R leaves a bit set
    expect(Buffer.from(base64urlDecode('YQ')!).toString()).toBe('a');
  });
});

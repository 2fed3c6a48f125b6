/**
 * base64url without padding (RFC 7515 section 2), both ways. Decoding is strict: any other
 * character, a length no encoding gives, or non-zero leftover bits is refused, so each token
 * has exactly one spelling and a changed character can never decode to the same bytes.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

export function base64urlEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += ALPHABET[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/** The bytes, or `null` when the text is not canonical base64url. */
export function base64urlDecode(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (const c of text) {
    const value = VALUE.get(c);
    if (value === undefined) return null;
    buffer = ((buffer << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero: otherwise two texts would decode to the same bytes.
  return (buffer & ((1 << bits) - 1)) === 0 ? out : null;
}

/**
 * GPT-2's byte-level alphabet: every byte has a printable stand-in character, so a vocabulary of
 * strings covers arbitrary bytes (a space is "Ġ", a newline "Ċ"). Printable Latin-1 bytes stand
 * for themselves; the others take the code points from 256 up, in byte order.
 */

function buildTables(): { toChar: string[]; toByte: Map<string, number> } {
  const toChar: string[] = new Array<string>(256);
  let next = 256;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
    toChar[byte] = String.fromCodePoint(printable ? byte : next++);
  }
  return { toChar, toByte: new Map(toChar.map((char, byte) => [char, byte])) };
}

const { toChar, toByte } = buildTables();

/** UTF-8 bytes of `text` in the byte-level alphabet. */
export function bytesToSymbols(bytes: Uint8Array): string[] {
  return Array.from(bytes, (byte) => toChar[byte]!);
}

/** The bytes a token string stands for; undefined when it holds a character outside the alphabet. */
export function symbolsToBytes(token: string): number[] | undefined {
  const bytes: number[] = [];
  for (const char of token) {
    const byte = toByte.get(char);
    if (byte === undefined) return undefined;
    bytes.push(byte);
  }
  return bytes;
}

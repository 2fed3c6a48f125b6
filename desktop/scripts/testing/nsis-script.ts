import { inflateRawSync } from 'node:zlib';

/** NSIS's first header: 0xDEADBEEF then "NullsoftInst", in every program makensis writes. */
const SIGNATURE = Buffer.concat([Buffer.from([0xef, 0xbe, 0xad, 0xde]), Buffer.from('NullsoftInst')]);

/**
 * The strings of an NSIS program's compiled script (its header: every instruction's text, each
 * `$VARIABLE` replaced by a code), read from a zlib, non-solid build such as the release's.
 * 7-Zip lists and unpacks an installer's files but has not shown its script ("[NSIS].nsi")
 * since version 15.06, so the tests read the header themselves: it follows the first header as
 * a length (the top bit set: compressed) and a raw deflate stream.
 */
export function nsisScriptText(program: Buffer): string {
  const at = program.indexOf(SIGNATURE);
  if (at < 4) throw new Error('not an NSIS program: no NullsoftInst header');
  const word = program.readUInt32LE(at + 24);
  const length = word & 0x7fffffff;
  const stored = program.subarray(at + 28, at + 28 + length);
  const header = word & 0x80000000 ? inflateRawSync(stored) : stored;
  if (header.length !== program.readUInt32LE(at + 16)) throw new Error('the NSIS header did not unpack to its recorded size');
  return header.toString('utf16le');
}

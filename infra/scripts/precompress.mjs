#!/usr/bin/env node
// `node infra/scripts/precompress.mjs <dist>`: after a vite build, writes <file>.br and
// <file>.gz beside every text asset of 1 KB or more, at the strongest settings (the build
// pays once; every visitor saves). The api serves them by content negotiation
// (api/src/platform/http/static-sites.ts). A compressed copy no smaller than the file is not kept.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.wasm', '.map']);
const MIN_BYTES = 1024;

const dist = process.argv[2];
if (!dist || !fs.existsSync(dist)) {
  console.error('Usage: node infra/scripts/precompress.mjs <dist folder>');
  process.exit(2);
}

let files = 0;
let before = 0;
let after = 0;
for (const entry of fs.readdirSync(dist, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (!entry.isFile() || !COMPRESSIBLE.has(path.extname(file))) continue;
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const brotli = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gzip = zlib.gzipSync(body, { level: 9 });
  for (const [suffix, compressed] of [
    ['.br', brotli],
    ['.gz', gzip],
  ]) {
    if (compressed.length < body.length) fs.writeFileSync(file + suffix, compressed);
    else fs.rmSync(file + suffix, { force: true });
  }
  files++;
  before += body.length;
  after += Math.min(brotli.length, body.length);
}
console.log(`precompressed ${files} files in ${dist}: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB as brotli`);

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs model.mjs's check in Node (Jest here loads CommonJS only); answers its error or 'ok'. */
function verify(file: string, expected: { size: number; sha256: string }): string {
  const script = `import(${JSON.stringify(path.join(__dirname, 'model.mjs'))}).then((m) => m.verifyFile(process.argv[1], JSON.parse(process.argv[2]))).then(() => console.log('ok'), (e) => console.log(e.message))`;
  return execFileSync(process.execPath, ['-e', script, file, JSON.stringify(expected)], { encoding: 'utf8' }).trim();
}

describe("the cached model's check", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-check-'));
  const file = path.join(dir, 'weights.gguf');
  const bytes = Buffer.from('GGUF and some weights');
  const expected = { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  beforeEach(() => fs.writeFileSync(file, bytes));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes the file with the expected size and SHA-256', () => {
    expect(verify(file, expected)).toBe('ok');
  });

  it('refuses a file of another size, naming both sizes', () => {
    expect(verify(file, { ...expected, size: expected.size + 1 })).toBe(
      `weights.gguf is ${expected.size} bytes, expected ${expected.size + 1}`,
    );
  });

  it('refuses a file of the right size with other bytes', () => {
    fs.writeFileSync(file, Buffer.from('GGUF and some wEights'));
    expect(verify(file, expected)).toMatch(/^weights\.gguf has SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}$/);
  });
});

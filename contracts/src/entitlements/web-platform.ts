/**
 * The few Web platform globals the verifier uses (WebCrypto's Ed25519, UTF-8), typed here
 * because the contracts compile without the DOM or Node typings: Node 24, browsers and
 * Electron's renderer all provide them, so the verifier needs no Node module and nothing in
 * the site's or the console's bundles changes.
 */
export interface Ed25519Subtle {
  importKey(
    format: 'jwk',
    key: { kty: 'OKP'; crv: 'Ed25519'; x: string },
    algorithm: { name: 'Ed25519' },
    extractable: false,
    usages: ['verify'],
  ): Promise<unknown>;
  verify(algorithm: { name: 'Ed25519' }, key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

interface WebGlobals {
  crypto?: { subtle?: Ed25519Subtle };
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label: 'utf-8', options: { fatal: true }) => { decode(bytes: Uint8Array): string };
}

const web = globalThis as unknown as WebGlobals;

/** WebCrypto's SubtleCrypto; absent only outside a secure context or on a very old runtime. */
export function subtleCrypto(): Ed25519Subtle {
  const subtle = web.crypto?.subtle;
  if (!subtle) throw new Error('WebCrypto (crypto.subtle) is not available here');
  return subtle;
}

export const utf8Encode = (text: string): Uint8Array => new web.TextEncoder().encode(text);

/** Strict: invalid UTF-8 throws rather than turning into U+FFFD. */
export const utf8Decode = (bytes: Uint8Array): string => new web.TextDecoder('utf-8', { fatal: true }).decode(bytes);

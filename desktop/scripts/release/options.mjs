// The settings a release build takes from its caller, checked with errors that say what to pass.
import fs from 'node:fs';

export const ALL_PLATFORMS = ['linux', 'windows'];

/** The origin a release names as its site: an http(s) origin with no path, or null for none. */
export function parseOrigin(value) {
  if (value === undefined || value === null || value === '') return null;
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--origin must be an http(s) origin such as https://meshwork.example.com, not "${value}"`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new Error(`--origin must use http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    throw new Error(`--origin must be an origin only (scheme, host and port, no path, query or credentials), not "${value}"`);
  return url.origin;
}

const KEYS_WANTED = '--keys must be the JWK set the site\'s GET /api/v1/devices/keys/ answers: {"keys": [Ed25519 public keys]}';
const BASE64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The platform's entitlement public keys a release carries as its root of trust (a JWK set as
 * GET /api/v1/devices/keys/ answers it), each key reduced to its fields; null for none.
 */
export function parseKeys(value) {
  if (value === undefined || value === null) return null;
  const keys = value?.keys;
  const valid = (key) =>
    key?.kty === 'OKP' &&
    key.crv === 'Ed25519' &&
    key.use === 'sig' &&
    key.alg === 'EdDSA' &&
    KEY_ID.test(key.kid) &&
    BASE64URL_32_BYTES.test(key.x);
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > 20 || !keys.every(valid)) throw new Error(KEYS_WANTED);
  return { keys: keys.map(({ kty, crv, kid, x, use, alg }) => ({ kty, crv, kid, x, use, alg })) };
}

/** `--keys <file or url>`: the key set from a JSON file, or fetched from the site (its /api/v1/devices/keys/). */
export async function loadKeys(source) {
  if (!source) return null;
  let text;
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source).catch((error) => {
      throw new Error(`--keys ${source} could not be fetched: ${error.message}`);
    });
    if (!response.ok) throw new Error(`--keys ${source} answered HTTP ${response.status}`);
    text = await response.text();
  } else {
    try {
      text = fs.readFileSync(source, 'utf8');
    } catch (error) {
      throw new Error(`--keys ${source} cannot be read: ${error.message}`);
    }
  }
  try {
    return parseKeys(JSON.parse(text));
  } catch (error) {
    throw new Error(error instanceof SyntaxError ? `${KEYS_WANTED}; ${source} is not JSON` : error.message);
  }
}

/** 'linux', 'windows' or 'all' as the list of platforms to build. */
export function parsePlatforms(value = 'all') {
  if (value === 'all') return [...ALL_PLATFORMS];
  if (ALL_PLATFORMS.includes(value)) return [value];
  throw new Error(`--platform must be linux, windows or all, not "${value}"`);
}

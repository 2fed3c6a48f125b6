import type { PoolClient } from 'pg';

/** A `\u0000` escape in JSON text: preceded by an even number of backslashes, so not itself escaped. */
const JSON_NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * The connection a projection writes through. PostgreSQL text and jsonb cannot hold U+0000,
 * but the log can carry it where PostgreSQL never saw it as text: personal fields are stored
 * encrypted and decrypted on the way to the read model. Rather than each projection
 * guarding each column, every query parameter is cleaned here: NUL is dropped from strings,
 * from strings inside arrays and objects (which pg sends as JSON), and from JSON text a
 * projection serialised itself. Nothing else about the text changes.
 */
export function textSafe(client: PoolClient): PoolClient {
  const query = (...args: unknown[]) => {
    const [first, second, ...rest] = args;
    if (Array.isArray(second)) return (client.query as (...a: unknown[]) => unknown)(first, second.map(withoutNul), ...rest);
    if (typeof first === 'object' && first !== null && Array.isArray((first as { values?: unknown }).values)) {
      const config = first as { values: unknown[] };
      return (client.query as (...a: unknown[]) => unknown)({ ...config, values: config.values.map(withoutNul) }, second, ...rest);
    }
    return (client.query as (...a: unknown[]) => unknown)(...args);
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A query parameter as PostgreSQL can store it: the same value without U+0000 anywhere in its text. */
export function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return stringWithoutNul(value);
  if (Array.isArray(value)) return value.map(withoutNul);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [stringWithoutNul(key), withoutNul(v)]));
  }
  return value; // numbers, booleans, null, dates, buffers: nothing to clean
}

function stringWithoutNul(text: string): string {
  const plain = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  // JSON.stringify writes NUL as the escape `\u0000`, which jsonb refuses just the same. Only
  // text that parses as JSON is touched, so a plain "\u0000" someone typed stays as typed.
  if (!plain.includes('\\u0000')) return plain;
  try {
    JSON.parse(plain);
  } catch {
    return plain;
  }
  return plain.replace(JSON_NUL_ESCAPE, '$1');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

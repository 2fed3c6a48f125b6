import { isCleanText } from '@meshwork/contracts';
import { ruleBroken } from './errors';

/**
 * The last guard before the log: no event is appended that a read model could not write.
 * The contract validators refuse such input at the edge with a message per field; this
 * catches any path that forgot one (a new command, a CLI, a webhook), before personal
 * fields are encrypted and the problem becomes invisible to the database. Multi-line text
 * is fine; NUL and unpaired surrogates (which PostgreSQL cannot hold as text) and numbers
 * that are not finite are not.
 */
export function assertStorable(value: unknown, path = 'data'): void {
  if (typeof value === 'string') {
    if (!isCleanText(value, true)) throw unstorable(path);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unstorable(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => assertStorable(item, `${path}.${index}`));
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) assertStorable(item, `${path}.${key}`);
  }
}

const unstorable = (path: string) => {
  const error = ruleBroken('The request holds characters or numbers that cannot be stored.');
  error.cause = path; // for the log; the caller sees no internals
  return error;
};

import { z } from 'zod';

/**
 * The rules every value from outside meets before it becomes a command, so the api and the
 * forms refuse the same input with the same words, and no event is stored that a read model
 * cannot write (PostgreSQL text cannot hold U+0000; its integers stop at 2^31 - 1).
 *
 * - Text: trimmed; no NUL or other control characters (line breaks and tabs only where a
 *   field is multi-line); no lone UTF-16 surrogates (they would be stored as U+FFFD without a
 *   word); a maximum length whose message says "at most N characters".
 * - Numbers: real JSON numbers, never strings or booleans coerced; whole where the column is
 *   an integer; bounded by what the domain and the column allow.
 * - Ids: real UUIDs.
 */

// Control characters are exactly what these patterns are for.
// eslint-disable-next-line no-control-regex
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID in its canonical text form (what PostgreSQL's uuid type takes). */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** Whether text is free of control characters and lone surrogates. */
export function isCleanText(value: string, multiline = false): boolean {
  return !(multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(value) && !LONE_SURROGATE.test(value);
}

/** "Required" for a missing value, "must be <kind>" for one of the wrong type. */
const typeError =
  (label: string, kind: string, requiredMessage = `${label} is required`) =>
  (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? requiredMessage : `${label} must be ${kind}`;

export interface TextOptions {
  max: number;
  /** At least one character after trimming (the default); `false` allows ''. */
  required?: boolean;
  /** Allows line breaks and tabs. */
  multiline?: boolean;
  /** Message for an empty value, when the field's own words differ from "<label> is required". */
  requiredMessage?: string;
}

/** Text from outside: trimmed, clean, at most `max` characters. */
export function text(label: string, { max, required = true, multiline = false, requiredMessage }: TextOptions) {
  const schema = z
    .string({ error: typeError(label, 'text', requiredMessage) })
    .trim()
    .refine((v) => isCleanText(v, multiline), `${label} contains characters that are not allowed`)
    .max(max, `${label} must be at most ${max} characters`);
  return required ? schema.min(1, requiredMessage ?? `${label} is required`) : schema;
}

/**
 * A secret typed by a person (a password): kept exactly as typed (never trimmed: a space
 * may be part of it), bounded, and free of NUL.
 */
export function secret(label: string, max: number, requiredMessage = `${label} is required`) {
  return z
    .string({ error: typeError(label, 'text', requiredMessage) })
    .min(1, requiredMessage)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !v.includes('\u0000') && !LONE_SURROGATE.test(v), `${label} contains characters that are not allowed`);
}

/** A whole number from a JSON body, within [min, max]. */
export function integer(label: string, { min, max }: { min: number; max: number }) {
  return z
    .number({ error: typeError(label, 'a whole number') })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);
}

const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * An amount of money: a JSON number, or the api's own money text ("29.00", as the spec writes
 * prices), with at most two decimals, within [min, max]. Nothing else is read as a number:
 * not true, "", null, [] or "0x1".
 */
export function money(label: string, { min = 0, max = 1_000_000 }: { min?: number; max?: number } = {}) {
  return z.union([z.number(), z.string().trim().regex(DECIMAL).transform(Number)], { error: typeError(label, 'a number') }).pipe(
    z
      .number()
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`)
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${label} must have at most 2 decimals`),
  );
}

/** A UUID (ids of users, payments, models, uploads). */
export function uuid(label: string) {
  return z.string({ error: typeError(label, 'text') }).regex(UUID_PATTERN, `${label} must be a valid id`);
}

/** A whole number from a query string: digits only, never "1e3" or " 1". */
export function queryInteger(label: string, { min, max }: { min: number; max: number }) {
  return z
    .string({ error: typeError(label, 'a whole number') })
    .regex(/^\d{1,15}$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(integer(label, { min, max }));
}

import { z } from 'zod';

/**
 * What every api answer shares: the one error body, the short answers of calls that only
 * confirm, and how times are written. Response schemas are zod, like the requests: one
 * definition gives the TypeScript type, the OpenAPI document and the tests' runtime check.
 */

/** A moment as the api writes it: ISO 8601 in UTC (`Date#toISOString`). */
export const timestamp = z.iso.datetime({ offset: true });

/**
 * The error body of every endpoint (spec section 8): the site reads `message` first, then the
 * field map `errors`, then `non_field_errors`; model uploads add `validation_errors` per file.
 */
export const ErrorBody = z
  .object({
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
    non_field_errors: z.array(z.string()).optional(),
    validation_errors: z.array(z.object({ file: z.string(), error: z.string() })).optional(),
    /** The token endpoints' OAuth 2.0 error code and its text (RFC 6749 §5.2). */
    error: z.string().optional(),
    error_description: z.string().optional(),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.output<typeof ErrorBody>;

/** Calls that only confirm: `{message}` for the person to read. */
export const MessageAnswer = z.object({ message: z.string() }).meta({ id: 'MessageAnswer' });
export type MessageAnswer = z.output<typeof MessageAnswer>;

/** What react-admin expects back from a delete: the record's id. */
export const DeletedAnswer = z.object({ id: z.string() }).meta({ id: 'DeletedAnswer' });
export type DeletedAnswer = z.output<typeof DeletedAnswer>;

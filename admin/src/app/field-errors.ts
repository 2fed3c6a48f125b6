import { HttpError } from 'react-admin';

type FieldMessages = Record<string, string[] | string>;

function hasFieldMessages(body: unknown): body is { errors: FieldMessages } {
  return typeof body === 'object' && body !== null && 'errors' in body && typeof body.errors === 'object' && body.errors !== null;
}

/**
 * The api answers field problems as `errors: {field: [messages]}`; react-admin's forms put
 * `body.errors[field]` under the field, one text each. Spec section 5: the first message of
 * each field is the one shown.
 */
export function withFirstFieldMessages(error: unknown): unknown {
  if (!(error instanceof HttpError) || !hasFieldMessages(error.body)) return error;
  const errors = Object.fromEntries(
    Object.entries(error.body.errors).map(([field, messages]) => [field, Array.isArray(messages) ? (messages[0] ?? '') : messages]),
  );
  return new HttpError(error.message, error.status, { ...error.body, errors });
}

import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../api/api-error';

/**
 * Puts the server's field errors (first message of each field) under the matching inputs and
 * focuses the first. `fields` maps server names to form names (password_confirm → confirmPassword).
 * Returns whether any field got a message.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Readonly<Record<string, Path<T>>>,
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const [serverField, messages] of Object.entries(error.fieldErrors)) {
    const formField = fields[serverField];
    const message = messages[0];
    if (!formField || !message) continue;
    setError(formField, { type: 'server', message }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

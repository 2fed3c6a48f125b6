/**
 * The one error body every endpoint answers with (a zod schema in contracts/, so the OpenAPI
 * document and the tests read the same definition); the site's error catalogue (spec section
 * 8) reads `message` first, then the field map `errors`, then `non_field_errors`.
 */
export { ErrorBody } from '@meshwork/contracts';

/** The spec's default message per status, used when nothing more precise is known. */
export function defaultMessage(status: number): string {
  switch (status) {
    case 400:
      return 'Invalid request. Please check your input.';
    case 401:
      return 'Authentication required. Please log in.';
    case 403:
      return "Access denied. You don't have permission to perform this action.";
    case 404:
      return 'The requested resource was not found.';
    case 422:
      return 'Validation failed. Please check your input.';
    case 429:
      return 'Too many requests. Please try again later.';
    case 500:
      return 'Internal server error. Please try again later.';
    case 502:
    case 503:
      return 'Service temporarily unavailable. Please try again later.';
    default:
      return 'An unexpected error occurred';
  }
}

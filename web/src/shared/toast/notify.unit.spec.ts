import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import { errorToastDuration, MAX_VISIBLE_TOASTS, TOAST_DURATION } from './notify';

describe('toast durations (spec section 9)', () => {
  it('keep network errors 6 s, authentication 5 s, validation 4 s, other errors 5 s', () => {
    expect(errorToastDuration(ApiError.network())).toBe(6000);
    expect(errorToastDuration(ApiError.timeout())).toBe(6000);
    expect(errorToastDuration(ApiError.fromResponse(401, {}))).toBe(5000);
    expect(errorToastDuration(ApiError.fromResponse(422, {}))).toBe(4000);
    expect(errorToastDuration(ApiError.fromResponse(500, {}))).toBe(5000);
    expect(errorToastDuration(new Error('script'))).toBe(5000);
  });

  it('keep success 2 s, everything else 4 s, and at most 20 on screen', () => {
    expect(TOAST_DURATION.success).toBe(2000);
    expect(TOAST_DURATION.default).toBe(4000);
    expect(MAX_VISIBLE_TOASTS).toBe(20);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ApiError,
  chooseMessage,
  classifyStatus,
  defaultMessageForStatus,
  errorMessage,
  fieldErrorsOf,
  NO_RESPONSE_MESSAGE,
} from './api-error';

describe('defaultMessageForStatus', () => {
  it.each([
    [400, 'Invalid request. Please check your input.'],
    [401, 'Authentication required. Please log in.'],
    [403, "Access denied. You don't have permission to perform this action."],
    [404, 'The requested resource was not found.'],
    [422, 'Validation failed. Please check your input.'],
    [429, 'Too many requests. Please try again later.'],
    [500, 'Internal server error. Please try again later.'],
    [502, 'Service temporarily unavailable. Please try again later.'],
    [503, 'Service temporarily unavailable. Please try again later.'],
    [504, 'An unexpected error occurred'],
    [409, 'An unexpected error occurred'],
    [418, 'An unexpected error occurred'],
  ])('%i → %s', (status, message) => {
    expect(defaultMessageForStatus(status)).toBe(message);
  });
});

describe('chooseMessage', () => {
  const full = {
    message: 'from message',
    detail: 'from detail',
    error: 'from error',
    errors: { email: ['from errors'] },
    non_field_errors: ['from non_field_errors'],
  };

  it('takes message, then detail, then error, then errors, then non_field_errors, then the status default', () => {
    const body: Record<string, unknown> = { ...full };
    expect(chooseMessage(body, 400)).toBe('from message');
    delete body.message;
    expect(chooseMessage(body, 400)).toBe('from detail');
    delete body.detail;
    expect(chooseMessage(body, 400)).toBe('from error');
    delete body.error;
    expect(chooseMessage(body, 400)).toBe('from errors');
    delete body.errors;
    expect(chooseMessage(body, 400)).toBe('from non_field_errors');
    delete body.non_field_errors;
    expect(chooseMessage(body, 400)).toBe('Invalid request. Please check your input.');
  });

  it('uses the first message of the first field in errors', () => {
    expect(chooseMessage({ errors: { username: ['Username taken', 'second'], email: ['Email taken'] } }, 400)).toBe('Username taken');
  });

  it('skips blank values instead of showing an empty toast', () => {
    expect(chooseMessage({ message: '', detail: '   ', errors: {}, non_field_errors: [] }, 404)).toBe(
      'The requested resource was not found.',
    );
  });

  it('falls back to the status default for bodies that are not JSON objects', () => {
    expect(chooseMessage('<html>Bad Gateway</html>', 502)).toBe('Service temporarily unavailable. Please try again later.');
    expect(chooseMessage(undefined, 429)).toBe('Too many requests. Please try again later.');
    expect(chooseMessage(['a list'], 500)).toBe('Internal server error. Please try again later.');
  });
});

describe('fieldErrorsOf', () => {
  it('keeps each field with its string messages, accepting a bare string', () => {
    expect(fieldErrorsOf({ errors: { email: ['Invalid email address'], username: 'Username taken', empty: [] } })).toEqual({
      email: ['Invalid email address'],
      username: ['Username taken'],
    });
  });
});

describe('classifyStatus', () => {
  it.each([
    [401, 'authentication', 'high'],
    [403, 'authorization', 'high'],
    [400, 'validation', 'low'],
    [422, 'validation', 'low'],
    [500, 'server', 'high'],
    [503, 'server', 'high'],
    [404, 'client', 'medium'],
    [429, 'client', 'medium'],
  ])('%i is %s with %s severity', (status, type, severity) => {
    expect(classifyStatus(status)).toEqual({ type, severity });
  });
});

describe('ApiError', () => {
  it('from a response carries status, class, chosen message and field errors', () => {
    const error = ApiError.fromResponse(400, { errors: { email: ['A user with that email already exists.'] } });
    expect(error).toMatchObject({
      status: 400,
      type: 'validation',
      severity: 'low',
      code: 'HTTP_ERROR',
      message: 'A user with that email already exists.',
      fieldErrors: { email: ['A user with that email already exists.'] },
    });
  });

  it('with no response says the server cannot be reached', () => {
    expect(ApiError.network()).toMatchObject({ message: NO_RESPONSE_MESSAGE, type: 'network', code: 'NETWORK_ERROR', status: undefined });
    expect(NO_RESPONSE_MESSAGE).toBe('Unable to connect to the server. Please check your internet connection.');
  });

  it('on timeout is a network error with code TIMEOUT, so the Request Timeout screen can tell it apart', () => {
    expect(ApiError.timeout()).toMatchObject({ message: NO_RESPONSE_MESSAGE, type: 'network', code: 'TIMEOUT', status: undefined });
  });
});

describe('errorMessage', () => {
  it("shows the catalogue message of an ApiError and the screen's fallback for anything else", () => {
    expect(errorMessage(ApiError.fromResponse(401, { detail: 'Invalid email or password' }), 'Login failed')).toBe(
      'Invalid email or password',
    );
    expect(errorMessage(new TypeError('boom'), 'Login failed')).toBe('Login failed');
  });
});

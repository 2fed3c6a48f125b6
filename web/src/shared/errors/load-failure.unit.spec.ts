import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import { classifyLoadFailure } from './load-failure';

describe('classifyLoadFailure (spec section 8, error screens)', () => {
  it('shows Connection Problem when no response arrived, by code or by the message', () => {
    expect(classifyLoadFailure(ApiError.network())).toEqual({
      kind: 'connection',
      title: 'Connection Problem',
      message: 'Unable to connect to the server. Please check your internet connection.',
    });
    expect(classifyLoadFailure(new Error('Network Error')).kind).toBe('connection');
  });

  it.each([
    [500, 'Internal server error. Please try again later.'],
    [502, 'Service temporarily unavailable. Please try again later.'],
    [504, 'The server took too long to respond. Please try again in a moment.'],
    [507, 'The server ran into a problem. Please try again later.'],
  ])('shows Server Error for %i with its own message, whatever the body said', (status, message) => {
    expect(classifyLoadFailure(ApiError.fromResponse(status, { message: 'stack trace here' }))).toEqual({
      kind: 'server',
      title: 'Server Error',
      message,
    });
  });

  it('shows the maintenance screen for 503', () => {
    expect(classifyLoadFailure(ApiError.fromResponse(503, undefined))).toMatchObject({ kind: 'maintenance', title: 'Under Maintenance' });
  });

  it.each([401, 403])('shows Access Denied for %i', (status) => {
    expect(classifyLoadFailure(ApiError.fromResponse(status, { detail: 'Not yours' }))).toMatchObject({
      kind: 'access',
      title: 'Access Denied',
    });
  });

  it('shows Request Timeout for code TIMEOUT or a message containing timeout', () => {
    expect(classifyLoadFailure(ApiError.timeout())).toMatchObject({ kind: 'timeout', title: 'Request Timeout' });
    expect(classifyLoadFailure(new Error('timeout of 30000ms exceeded')).kind).toBe('timeout');
  });

  it("checks in the spec's order: a network code wins over a status, a status over a timeout message", () => {
    expect(classifyLoadFailure({ code: 'NETWORK_ERROR', status: 500, message: '' }).kind).toBe('connection');
    expect(classifyLoadFailure({ status: 502, message: 'upstream timeout' }).kind).toBe('server');
    expect(classifyLoadFailure({ status: 403, message: 'timeout' }).kind).toBe('access');
  });

  it('otherwise shows the generic Error screen with the message and the status', () => {
    expect(classifyLoadFailure(ApiError.fromResponse(404, { message: 'No such checkout' }))).toEqual({
      kind: 'other',
      title: 'Error',
      message: 'No such checkout',
      status: 404,
    });
    expect(classifyLoadFailure(ApiError.fromResponse(429, undefined))).toMatchObject({
      message: 'Too many requests. Please try again later.',
      status: 429,
    });
  });

  it('gives a thrown non-HTTP error its own message and no status, and anything blank the default', () => {
    expect(classifyLoadFailure(new TypeError('plans.map is not a function'))).toEqual({
      kind: 'other',
      title: 'Error',
      message: 'plans.map is not a function',
      status: undefined,
    });
    expect(classifyLoadFailure(undefined)).toMatchObject({ kind: 'other', message: 'An unexpected error occurred' });
    expect(classifyLoadFailure(new Error('  '))).toMatchObject({ kind: 'other', message: 'An unexpected error occurred' });
  });
});

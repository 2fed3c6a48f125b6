import {
  conflict,
  DomainError,
  type DomainErrorKind,
  forbidden,
  notFound,
  oauthError,
  ruleBroken,
  tooManyRequests,
  unauthenticated,
  unavailable,
} from '../domain/errors';
import { WrongExpectedVersionError } from '../event-store/event-store.errors';
import { toHttp } from './all-exceptions.filter';

describe('toHttp: domain errors by kind', () => {
  it.each<[DomainErrorKind, number]>([
    ['rule_broken', 400],
    ['unauthenticated', 401],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['too_many_requests', 429],
    ['unavailable', 503],
  ])('answers %s with %i and the text the throw site gave', (kind, status) => {
    expect(toHttp(new DomainError(kind, 'Precisely this.'))).toEqual({ status, body: { message: 'Precisely this.' } });
  });

  it("answers a kind thrown without a text with the spec's default text for its status", () => {
    const answers = [notFound(), forbidden(), unauthenticated(), tooManyRequests(undefined, 30), unavailable()].map(toHttp);
    expect(answers).toEqual([
      { status: 404, body: { message: 'The requested resource was not found.' } },
      { status: 403, body: { message: "Access denied. You don't have permission to perform this action." } },
      { status: 401, body: { message: 'Authentication required. Please log in.' } },
      { status: 429, body: { message: 'Too many requests. Please try again later.' } },
      { status: 503, body: { message: 'Service temporarily unavailable. Please try again later.' } },
    ]);
  });

  it("answers an OAuth refusal as a 400 with the spec's message and OAuth's error and error_description", () => {
    expect(toHttp(oauthError('authorization_pending', 'Waiting for you to approve this device.'))).toEqual({
      status: 400,
      body: {
        message: 'Waiting for you to approve this device.',
        error: 'authorization_pending',
        error_description: 'Waiting for you to approve this device.',
      },
    });
  });

  it('names the field a rule is about in the field map, with the same text', () => {
    expect(toHttp(ruleBroken('Amount must be more than 0', 'amount'))).toEqual({
      status: 400,
      body: { message: 'Amount must be more than 0', errors: { amount: ['Amount must be more than 0'] } },
    });
    expect(toHttp(conflict('An archived plan has this slug.', 'slug')).body.errors).toEqual({ slug: ['An archived plan has this slug.'] });
  });

  it('keeps the kind readable in the log when no text was given', () => {
    expect([notFound().message, tooManyRequests(undefined, 30).message]).toEqual(['not found', 'too many requests']);
  });

  it('still answers the event store errors and anything unexpected as before', () => {
    expect(toHttp(new WrongExpectedVersionError('plan-1', 3)).status).toBe(409);
    expect(toHttp(new Error('secret detail'))).toEqual({
      status: 500,
      body: { message: 'Internal server error. Please try again later.' },
    });
  });
});

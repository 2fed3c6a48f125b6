import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { currentEventMetadata } from '../event-store/event-metadata';
import { correlationMiddleware, loggableUrl } from './correlation.middleware';
import { ZodPipe } from './validation';

function fakeRequest(headers: Record<string, string>): Request {
  return { header: (name: string) => headers[name.toLowerCase()], ip: '192.0.2.7', method: 'GET', originalUrl: '/x' } as unknown as Request;
}

function fakeResponse(): Response & { headers: Record<string, string> } {
  const response = Object.assign(new EventEmitter(), { headers: {} as Record<string, string>, statusCode: 200 });
  return Object.assign(response, { setHeader: (k: string, v: string) => (response.headers[k] = v) }) as never;
}

describe('correlation id and event metadata', () => {
  it('puts the request correlation id, ip and user agent into the metadata of events it causes', () => {
    let metadata: ReturnType<typeof currentEventMetadata> | undefined;
    const next: NextFunction = () => {
      metadata = currentEventMetadata('command-9');
    };
    const response = fakeResponse();
    correlationMiddleware(fakeRequest({ 'x-correlation-id': 'abc-123-correlation', 'user-agent': 'Meshwork-Desktop/2.0' }), response, next);
    expect(response.headers['x-correlation-id']).toBe('abc-123-correlation');
    expect(metadata).toEqual({
      correlationId: 'abc-123-correlation',
      causationId: 'command-9',
      actor: { userId: null, isStaff: false, ip: '192.0.2.7', userAgent: 'Meshwork-Desktop/2.0' },
    });
  });

  it('gives work outside any request a system actor and a fresh correlation id', () => {
    const a = currentEventMetadata();
    const b = currentEventMetadata();
    expect(a.actor).toEqual({ userId: null, isStaff: false, ip: null, userAgent: null });
    expect(a.correlationId).not.toBe(b.correlationId);
  });
});

describe('loggableUrl', () => {
  it('keeps the path and the query names, never a query value', () => {
    expect(loggableUrl('/reset-password?token=s3cr3t-t0ken&token=again&next=%2Fdashboard')).toBe('/reset-password?token=…&next=…');
    expect(loggableUrl('/api/v1/plans/')).toBe('/api/v1/plans/');
    expect(loggableUrl('/login?')).toBe('/login?');
  });
});

describe('ZodPipe', () => {
  const Signup = z.object({
    email: z.email('Invalid email address'),
    username: z.string().min(3, 'Username must be at least 3 characters'),
  });

  it('maps schema failures onto fields with their messages', () => {
    expect(() => new ZodPipe(Signup).transform({ email: 'nope', username: 'ab' })).toThrow(
      expect.objectContaining({
        body: {
          message: 'Invalid email address',
          errors: { email: ['Invalid email address'], username: ['Username must be at least 3 characters'] },
        },
      }),
    );
  });

  it('puts problems with the whole payload under non_field_errors', () => {
    expect(() => new ZodPipe(Signup).transform('not an object')).toThrow(
      expect.objectContaining({ body: expect.objectContaining({ non_field_errors: [expect.any(String)] }) }),
    );
  });

  it('hands the handler the parsed value', () => {
    expect(new ZodPipe(Signup).transform({ email: 'a@b.co', username: 'ann', extra: 1 })).toEqual({ email: 'a@b.co', username: 'ann' });
  });
});

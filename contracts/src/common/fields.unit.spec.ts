import type { z } from 'zod';
import { integer, isUuid, money, queryInteger, secret, text, uuid } from './fields';

const messagesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('text', () => {
  const name = text('Name', { max: 80 });
  const notes = text('Notes', { max: 500, multiline: true, required: false });

  it('trims and keeps ordinary text, including any script of the world and emoji', () => {
    expect(name.parse('  Ünïcode 名前 🚀 ')).toBe('Ünïcode 名前 🚀');
  });

  it('says what is wrong: missing, empty, too long, not text', () => {
    expect(messagesOf(name, undefined)).toEqual(['Name is required']);
    expect(messagesOf(name, '   ')).toEqual(['Name is required']);
    expect(messagesOf(name, 'x'.repeat(81))).toEqual(['Name must be at most 80 characters']);
    expect(messagesOf(name, 42)).toEqual(['Name must be text']);
  });

  it('refuses NUL, other control characters and lone surrogates', () => {
    for (const bad of ['a\u0000b', 'a\u0007b', 'a\u001bb', 'a\u007fb', 'a\ud800b', 'a\udc00b', 'line\nbreak', 'tab\there']) {
      expect(messagesOf(name, bad)).toEqual(['Name contains characters that are not allowed']);
    }
  });

  it('allows line breaks and tabs only in multi-line fields, never NUL', () => {
    expect(notes.parse('first line\r\n\tsecond')).toBe('first line\r\n\tsecond');
    expect(messagesOf(notes, 'a\u0000b')).toEqual(['Notes contains characters that are not allowed']);
    expect(notes.parse('')).toBe('');
  });
});

describe('integer', () => {
  const clients = integer('Max clients', { min: 1, max: 999 });

  it('takes whole JSON numbers within bounds', () => {
    expect(clients.parse(10)).toBe(10);
  });

  it('refuses strings, booleans, null, fractions and numbers out of bounds, without coercing', () => {
    expect(messagesOf(clients, '10')).toEqual(['Max clients must be a whole number']);
    expect(messagesOf(clients, true)).toEqual(['Max clients must be a whole number']);
    expect(messagesOf(clients, null)).toEqual(['Max clients is required']);
    expect(messagesOf(clients, 1.5)).toEqual(['Max clients must be a whole number']);
    expect(messagesOf(clients, 3_000_000_000)).toEqual(['Max clients must be at most 999']);
    expect(messagesOf(clients, 0)).toEqual(['Max clients must be at least 1']);
  });
});

describe('money', () => {
  const price = money('Price');

  it("takes numbers and the api's own money text with at most two decimals", () => {
    expect(price.parse(29)).toBe(29);
    expect(price.parse('29.00')).toBe(29);
    expect(price.parse(0.5)).toBe(0.5);
  });

  it('refuses what a loose parser would read as a number', () => {
    for (const bad of [true, '', null, [], '0x1', '1e3', ' ', {}]) expect(messagesOf(price, bad)).not.toEqual([]);
    expect(messagesOf(price, true)).toEqual(['Price must be a number']);
    expect(messagesOf(price, 1.234)).toEqual(['Price must have at most 2 decimals']);
    expect(messagesOf(price, -1)).toEqual(['Price must be at least 0']);
    expect(messagesOf(price, 2_000_000)).toEqual(['Price must be at most 1000000']);
  });
});

describe('ids and query numbers', () => {
  it('takes only canonical UUIDs', () => {
    expect(isUuid('0b6c3a52-1f0e-4d8e-9a57-3c2f1e0d9b8a')).toBe(true);
    expect(isUuid('------------------------------------')).toBe(false);
    expect(messagesOf(uuid('Id'), 'not-a-uuid')).toEqual(['Id must be a valid id']);
  });

  it('reads query numbers from digits only', () => {
    const page = queryInteger('Page', { min: 1, max: 1000 });
    expect(page.parse('3')).toBe(3);
    expect(messagesOf(page, '1e3')).toEqual(['Page must be a whole number']);
    expect(messagesOf(page, '0')).toEqual(['Page must be at least 1']);
  });
});

describe('secret', () => {
  const password = secret('Password', 128);

  it('keeps a password as typed and says when it is too long', () => {
    expect(password.parse(' Pass word1 ')).toBe(' Pass word1 ');
    expect(messagesOf(password, 'A'.repeat(129))).toEqual(['Password must be at most 128 characters']);
    expect(messagesOf(password, '')).toEqual(['Password is required']);
    expect(messagesOf(password, 'a\u0000b')).toEqual(['Password contains characters that are not allowed']);
  });
});

import type { PoolClient } from 'pg';
import { textSafe, withoutNul } from './text-safe-client';

describe('withoutNul: any text the log holds, as PostgreSQL can store it', () => {
  it('drops U+0000 from strings and leaves other text alone', () => {
    expect(withoutNul('a\u0000b\u0000')).toBe('ab');
    expect(withoutNul('ünï\tcode\n\u0001')).toBe('ünï\tcode\n\u0001');
  });

  it('cleans strings inside arrays and objects, keys included (pg sends those as JSON)', () => {
    expect(withoutNul({ name: 'x\u0000y', tags: ['a\u0000', 1, null], nested: { 'k\u0000': true } })).toEqual({
      name: 'xy',
      tags: ['a', 1, null],
      nested: { k: true },
    });
  });

  it('removes the \\u0000 escape from JSON text a projection serialised itself', () => {
    const json = JSON.stringify({ a: 'x\u0000y', b: ['\u0000\u0000'] });
    expect(JSON.parse(withoutNul(json) as string)).toEqual({ a: 'xy', b: [''] });
  });

  it('keeps an escaped backslash before "u0000" in JSON, and "\\u0000" typed as plain text', () => {
    const json = JSON.stringify({ path: 'C:\\u0000' }); // a backslash, then the letters u0000
    expect(withoutNul(json)).toBe(json);
    expect(withoutNul('type \\u0000 to end')).toBe('type \\u0000 to end');
  });

  it('passes numbers, booleans, dates and buffers through untouched', () => {
    const date = new Date();
    const buffer = Buffer.from([0, 1]);
    expect(withoutNul(3_000_000_000)).toBe(3_000_000_000);
    expect(withoutNul(false)).toBe(false);
    expect(withoutNul(date)).toBe(date);
    expect(withoutNul(buffer)).toBe(buffer);
  });
});

describe('textSafe', () => {
  it('cleans the parameters of every query form and leaves the rest of the client as it is', async () => {
    const calls: unknown[][] = [];
    const client = {
      query: (...args: unknown[]) => {
        calls.push(args);
        return Promise.resolve({ rows: [] });
      },
      release: () => 'released',
    } as unknown as PoolClient;
    const safe = textSafe(client);
    await safe.query('SELECT $1', ['a\u0000']);
    await safe.query({ text: 'SELECT $1', values: ['b\u0000'] });
    await safe.query('SELECT 1');
    expect(calls).toEqual([['SELECT $1', ['a']], [{ text: 'SELECT $1', values: ['b'] }, undefined], ['SELECT 1']]);
    expect(safe.release()).toBe('released');
  });
});

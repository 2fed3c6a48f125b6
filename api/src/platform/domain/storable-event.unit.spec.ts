import { DomainError } from './errors';
import { assertStorable } from './storable-event';

describe('assertStorable: the guard in front of the log', () => {
  it('lets ordinary event data through, multi-line text, dates and nested lists included', () => {
    expect(() =>
      assertStorable({ name: 'Ünïcode 🚀', notes: 'one\ntwo\ttabs', at: new Date(), items: [{ cents: 2900 }, null, true] }),
    ).not.toThrow();
  });

  it.each([
    ['a NUL in a nested field', { changes: { firstName: 'a\u0000b' } }],
    ['an unpaired surrogate in a list', { features: ['ok', '\ud800'] }],
    ['a number that is not finite', { priceCents: Number.POSITIVE_INFINITY }],
    ['NaN', { tier: Number.NaN }],
  ])('refuses %s with a 400, never a database error', (_case, data) => {
    expect(() => assertStorable(data)).toThrow(DomainError);
    try {
      assertStorable(data);
    } catch (error) {
      expect((error as DomainError).kind).toBe('rule_broken');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { formatLimit, formatMoney, limitText, planHighlights } from './billing-format';

describe('billing formats', () => {
  it('shows money text as US dollars with cents', () => {
    expect(formatMoney('29.00')).toBe('$29.00');
    expect(formatMoney('288.84')).toBe('$288.84');
    expect(formatMoney('1200')).toBe('$1,200.00');
  });

  it('writes money text exactly as Intl’s en-US dollar format does, signs and grouping included', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    const amounts = [
      '0.00',
      '-0.00',
      '0.01',
      '0.10',
      '9.99',
      '288.84',
      '999.99',
      '1000.00',
      '1234567.89',
      '-5.00',
      '-1234.50',
      '12345678901.23',
    ];
    for (const amount of amounts) expect(formatMoney(amount)).toBe(usd.format(Number(amount)));
    for (let cents = 0; cents < 100_000; cents += 7) {
      const amount = (cents / 100).toFixed(2);
      expect(formatMoney(amount)).toBe(usd.format(Number(amount)));
    }
    expect(formatMoney('not money')).toBe('—');
  });

  it('shows 999 and above as Unlimited', () => {
    expect(formatLimit(5)).toBe('5');
    expect(formatLimit(999)).toBe('Unlimited');
    expect(limitText(1, 'network')).toBe('1 network');
    expect(limitText(5, 'network')).toBe('5 networks');
    expect(limitText(999, 'network')).toBe('Unlimited networks');
  });

  it('lists a plan’s limits before its features', () => {
    expect(planHighlights({ max_networks: 999, max_clients_per_network: 2, features: ['API Access'] })).toEqual([
      'Unlimited networks',
      '2 clients per network',
      'API Access',
    ]);
  });
});

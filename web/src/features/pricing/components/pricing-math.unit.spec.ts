import { describe, expect, it } from 'vitest';
import { freePlan, proPlan, seededPlans } from '../../../shared/billing/billing-fixtures';
import { annualSavings, ANNUAL_SAVING_LABEL, comparisonRows } from './pricing-math';

describe('annual pricing (spec section 9)', () => {
  it('labels the annual saving 17%', () => {
    expect(ANNUAL_SAVING_LABEL).toBe('Save 17%');
  });

  it('shows savings of 12 x monthly price x 0.17, to the cent', () => {
    expect(annualSavings('29.00')).toBe('59.16');
    expect(annualSavings('99.00')).toBe('201.96');
    expect(annualSavings('0.00')).toBe('0.00');
  });
});

describe('detailed comparison', () => {
  const rows = Object.fromEntries(comparisonRows(seededPlans).map((row) => [row.label, row.values]));

  it('has the spec’s rows, in order, one value per plan', () => {
    expect(Object.keys(rows)).toEqual([
      'Max Networks',
      'Max Clients per Network',
      'Model Access',
      'Priority Support',
      'Custom Integrations',
      'Advanced Analytics',
      'API Access',
    ]);
  });

  it('reads every value from the plans: limits with 999 as Unlimited, words, and exact feature matches', () => {
    expect(rows['Max Networks']).toEqual(['1', '5', 'Unlimited']);
    expect(rows['Max Clients per Network']).toEqual(['2', '10', 'Unlimited']);
    expect(rows['Model Access']).toEqual(['Basic', 'Advanced', 'All Models']);
    expect(rows['Priority Support']).toEqual([false, true, true]);
    expect(rows['Custom Integrations']).toEqual([false, false, true]);
    expect(rows['Advanced Analytics']).toEqual([false, true, true]);
    expect(rows['API Access']).toEqual(['Limited', 'Full', 'Full + Webhooks']);
  });

  it('follows plan data rather than a fixed table', () => {
    const changed = [freePlan, { ...proPlan, features: ['Custom Integrations'], max_networks: 7 }];
    const byLabel = Object.fromEntries(comparisonRows(changed).map((row) => [row.label, row.values]));
    expect(byLabel['Custom Integrations']).toEqual([false, true]);
    expect(byLabel['Priority Support']).toEqual([false, false]);
    expect(byLabel['Max Networks']).toEqual(['1', '7']);
  });
});

import { describe, expect, it } from 'vitest';
import { proPlan } from './billing-fixtures';
import {
  canDismiss,
  changeDirection,
  cyclePrice,
  initialPlanChangeState,
  planChangeReducer,
  successMessage,
  type PlanChangeEvent,
  type PlanChangeState,
} from './plan-change';

const run = (events: PlanChangeEvent[], from: PlanChangeState = initialPlanChangeState) => events.reduce(planChangeReducer, from);

describe('plan change direction (spec section 4)', () => {
  it('is an upgrade only when the target tier is higher', () => {
    expect(changeDirection(1, 2)).toBe('upgrade');
    expect(changeDirection(1, 3)).toBe('upgrade');
    expect(changeDirection(3, 2)).toBe('downgrade');
    expect(changeDirection(2, 1)).toBe('downgrade');
  });
});

describe('plan-change dialog states', () => {
  it('goes confirmation → processing → success', () => {
    expect(run([{ type: 'confirm' }])).toEqual({ step: 'processing' });
    expect(run([{ type: 'confirm' }, { type: 'succeeded', message: 'done' }])).toEqual({ step: 'success', message: 'done' });
  });

  it('goes to error on failure, and Try Again returns to confirmation', () => {
    const failed = run([{ type: 'confirm' }, { type: 'failed', message: 'Card declined' }]);
    expect(failed).toEqual({ step: 'error', message: 'Card declined' });
    expect(planChangeReducer(failed, { type: 'retry' })).toEqual({ step: 'confirmation' });
  });

  it('ignores a second confirm while processing, and results that arrive outside processing', () => {
    expect(run([{ type: 'confirm' }, { type: 'confirm' }])).toEqual({ step: 'processing' });
    expect(run([{ type: 'succeeded', message: 'x' }])).toEqual({ step: 'confirmation' });
    expect(run([{ type: 'failed', message: 'x' }])).toEqual({ step: 'confirmation' });
    expect(run([{ type: 'retry' }])).toEqual({ step: 'confirmation' });
  });

  it('blocks cancel and close only while processing', () => {
    expect(canDismiss({ step: 'processing' })).toBe(false);
    expect(canDismiss({ step: 'confirmation' })).toBe(true);
    expect(canDismiss({ step: 'success', message: '' })).toBe(true);
    expect(canDismiss({ step: 'error', message: '' })).toBe(true);
  });
});

describe('plan change wording and price', () => {
  it('says a downgrade waits for the period end and an upgrade is immediate', () => {
    expect(successMessage('downgrade_scheduled', 'Free')).toBe('You will move to the Free plan at the end of your current billing cycle.');
    expect(successMessage('upgraded', 'Enterprise')).toBe('You are now on the Enterprise plan.');
  });

  it('charges the server’s yearly price for a yearly cycle and the monthly price otherwise', () => {
    expect(cyclePrice(proPlan, 'monthly')).toBe('29.00');
    expect(cyclePrice(proPlan, 'yearly')).toBe('288.84');
  });
});

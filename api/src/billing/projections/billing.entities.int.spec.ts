import { createTablesIn, describeSchema } from '../../platform/testing/describe-schema';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import { BILLING_ENTITIES } from './billing.entities';

/** The tables as they were written by hand before the entities described them (billing read model version 4). */
const HAND_WRITTEN = [
  'entitlements.download_access boolean NOT NULL',
  'entitlements.expires_at timestamp with time zone',
  'entitlements.max_clients_per_network double precision NOT NULL',
  'entitlements.max_networks double precision NOT NULL',
  'entitlements.plan_id text NOT NULL',
  'entitlements.user_id text NOT NULL',
  'model_access.model_id text NOT NULL',
  'model_access.name text NOT NULL',
  'model_access.plans jsonb NOT NULL',
  'model_access.published boolean NOT NULL false',
  'payments.amount_cents integer NOT NULL',
  'payments.created_at timestamp with time zone NOT NULL',
  'payments.currency text NOT NULL',
  'payments.id text NOT NULL',
  'payments.kind text NOT NULL',
  'payments.plan_id text NOT NULL',
  'payments.processed_at timestamp with time zone',
  'payments.provider text NOT NULL',
  'payments.refund_reason text',
  'payments.refund_target text',
  'payments.refunded_cents integer NOT NULL 0',
  'payments.seq bigint NOT NULL',
  'payments.status text NOT NULL',
  'payments.transaction_id text NOT NULL',
  'payments.user_id text NOT NULL',
  'plans.api_access text NOT NULL',
  'plans.api_requests_per_minute integer NOT NULL',
  'plans.api_token_scope text NOT NULL',
  'plans.archived boolean NOT NULL false',
  'plans.created_at timestamp with time zone NOT NULL',
  'plans.description text NOT NULL',
  'plans.download_access boolean NOT NULL',
  'plans.duration_days double precision NOT NULL',
  'plans.features jsonb NOT NULL',
  'plans.id text NOT NULL',
  'plans.is_active boolean NOT NULL',
  'plans.max_clients_per_network double precision NOT NULL',
  'plans.max_networks double precision NOT NULL',
  'plans.model_access text NOT NULL',
  'plans.name text NOT NULL',
  'plans.popular boolean NOT NULL',
  'plans.price_cents integer NOT NULL',
  'plans.tier integer NOT NULL',
  'plans.usage_history_days integer NOT NULL',
  'plans.webhooks boolean NOT NULL',
  'plans.yearly_price_cents integer NOT NULL',
  'preferences.onboarding_completed boolean NOT NULL false',
  'preferences.show_onboarding boolean NOT NULL false',
  'preferences.user_id text NOT NULL',
  'subscriptions.cancel_at_period_end boolean NOT NULL false',
  'subscriptions.cycle text NOT NULL',
  'subscriptions.grace_until timestamp with time zone',
  'subscriptions.period_end timestamp with time zone NOT NULL',
  'subscriptions.period_start timestamp with time zone NOT NULL',
  'subscriptions.plan_id text NOT NULL',
  'subscriptions.price_cents integer NOT NULL',
  'subscriptions.provider text NOT NULL',
  'subscriptions.provider_subscription_id text',
  'subscriptions.scheduled_plan_id text',
  'subscriptions.started_at timestamp with time zone NOT NULL',
  'subscriptions.status text NOT NULL',
  'subscriptions.user_id text NOT NULL',
];

/** Version 6's new table: each payer's email and names, from identity's events. */
const PAYERS = [
  'payers.email text',
  "payers.first_name text NOT NULL ''::text",
  "payers.last_name text NOT NULL ''::text",
  'payers.user_id text NOT NULL',
  'payers.username text',
];

describe('The billing read model’s tables, from its entities', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([], 2);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('have the columns, keys and indexes the hand-written tables had, in any schema (a rebuild’s too)', async () => {
    await createTablesIn(db.pool, 'rm_billing__next', BILLING_ENTITIES);
    const { columns, keys, indexes } = await describeSchema(db.pool, 'rm_billing__next');
    // Version 7 dropped model_access: which models a plan opens is the catalog's alone.
    const kept = HAND_WRITTEN.filter((column) => !column.startsWith('model_access.'));
    expect(columns).toEqual([...kept, ...PAYERS].sort());
    expect(keys).toEqual([
      'entitlements PRIMARY KEY (user_id)',
      'payers PRIMARY KEY (user_id)',
      'payments PRIMARY KEY (id)',
      'plans PRIMARY KEY (id)',
      'preferences PRIMARY KEY (user_id)',
      'subscriptions PRIMARY KEY (user_id)',
    ]);
    // The hand-written payments indexes were (…, created_at DESC, seq DESC); ascending ones
    // serve the same newest-first reads, scanned backwards.
    expect(indexes).toEqual([
      'payments btree (created_at, seq)',
      'payments btree (refund_target)',
      'payments btree (user_id, created_at, seq)',
      'subscriptions btree (period_end)',
    ]);
  });
});

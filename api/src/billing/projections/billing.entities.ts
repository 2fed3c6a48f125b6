import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ApiTokenScopeLimit, Payment, Subscription } from '@meshwork/contracts';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The billing read model's tables, described once for TypeORM: the projection creates them
 * from this metadata (in whichever schema it is filling, see createEntityTables) and the
 * console queries them through it. Properties are named as the columns, so a record is the
 * row as stored.
 */

export const BILLING_PROJECTION = 'billing';

/** Queries read the live schema; a rebuild fills rm_billing__next and renames it to this. */
const schema = readModelSchema(BILLING_PROJECTION);

/** A plan's terms as sold, whether it is on sale, and whether staff archived it. */
@Entity({ schema, name: 'plans' })
export class PlanRecord {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'integer' })
  price_cents!: number;

  @Column({ type: 'integer' })
  yearly_price_cents!: number;

  @Column({ type: 'double precision' })
  duration_days!: number;

  @Column({ type: 'double precision' })
  max_networks!: number;

  @Column({ type: 'double precision' })
  max_clients_per_network!: number;

  @Column({ type: 'jsonb' })
  features!: string[];

  @Column({ type: 'text' })
  model_access!: string;

  @Column({ type: 'text' })
  api_access!: string;

  @Column({ type: 'boolean' })
  download_access!: boolean;

  @Column({ type: 'text' })
  api_token_scope!: ApiTokenScopeLimit;

  @Column({ type: 'integer' })
  api_requests_per_minute!: number;

  @Column({ type: 'boolean' })
  webhooks!: boolean;

  @Column({ type: 'integer' })
  usage_history_days!: number;

  @Column({ type: 'integer' })
  tier!: number;

  @Column({ type: 'boolean' })
  popular!: boolean;

  @Column({ type: 'boolean' })
  is_active!: boolean;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;

  @Column({ type: 'timestamptz' })
  created_at!: Date;
}

/** A user's paid subscription while it lasts (expired ones are deleted: the user is on the free plan). */
@Entity({ schema, name: 'subscriptions' })
export class SubscriptionRecord {
  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  status!: Exclude<Subscription['status'], 'free'>;

  @Column({ type: 'text' })
  plan_id!: string;

  @Column({ type: 'integer' })
  price_cents!: number;

  @Column({ type: 'text' })
  cycle!: NonNullable<Subscription['billing_cycle']>;

  @Column({ type: 'timestamptz' })
  period_start!: Date;

  /** The billing clock looks for subscriptions whose period has ended. */
  @Index()
  @Column({ type: 'timestamptz' })
  period_end!: Date;

  @Column({ type: 'text' })
  provider!: NonNullable<Subscription['payment_method']>;

  @Column({ type: 'text', nullable: true })
  provider_subscription_id!: string | null;

  @Column({ type: 'boolean', default: false })
  cancel_at_period_end!: boolean;

  @Column({ type: 'text', nullable: true })
  scheduled_plan_id!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  grace_until!: Date | null;

  @Column({ type: 'timestamptz' })
  started_at!: Date;
}

/** What a user may use now, as billing last granted it. */
@Entity({ schema, name: 'entitlements' })
export class EntitlementRecord {
  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  plan_id!: string;

  @Column({ type: 'double precision' })
  max_networks!: number;

  @Column({ type: 'double precision' })
  max_clients_per_network!: number;

  @Column({ type: 'boolean' })
  download_access!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  expires_at!: Date | null;
}

/**
 * Every payment with its refunds. The two lists (a user's, the console's) read newest first
 * by (created_at, seq): ascending indexes, which PostgreSQL scans backwards for that order.
 */
@Entity({ schema, name: 'payments' })
@Index(['user_id', 'created_at', 'seq'])
@Index(['created_at', 'seq'])
export class PaymentRecord {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  plan_id!: string;

  @Column({ type: 'integer' })
  amount_cents!: number;

  @Column({ type: 'text' })
  currency!: string;

  @Column({ type: 'text' })
  status!: Payment['status'];

  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'text' })
  provider!: 'stripe' | 'simulated';

  @Column({ type: 'text' })
  transaction_id!: string;

  /** The provider's handle a refund is made against (the charge, for Stripe). */
  @Index()
  @Column({ type: 'text', nullable: true })
  refund_target!: string | null;

  @Column({ type: 'integer', default: 0 })
  refunded_cents!: number;

  @Column({ type: 'text', nullable: true })
  refund_reason!: string | null;

  @Column({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  processed_at!: Date | null;

  /** Log position of the payment's first event: orders payments made in the same instant (pg gives bigint as text). */
  @Column({ type: 'bigint' })
  seq!: string;
}

/** The dashboard preferences that go with the account page. */
@Entity({ schema, name: 'preferences' })
export class PreferencesRecord {
  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'boolean', default: false })
  onboarding_completed!: boolean;

  @Column({ type: 'boolean', default: false })
  show_onboarding!: boolean;
}

/**
 * Each user's email, username and name, from identity's events (see payers.ts): the console's
 * payments list shows, searches and sorts by them. Gone when the account is deleted.
 */
@Entity({ schema, name: 'payers' })
export class PayerRecord {
  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  username!: string | null;

  @Column({ type: 'text', default: '' })
  first_name!: string;

  @Column({ type: 'text', default: '' })
  last_name!: string;
}

/** Every table of the billing read model. */
export const BILLING_ENTITIES: ReadModelEntities = [
  PlanRecord,
  SubscriptionRecord,
  EntitlementRecord,
  PaymentRecord,
  PreferencesRecord,
  PayerRecord,
];

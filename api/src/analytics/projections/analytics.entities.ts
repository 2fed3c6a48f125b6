import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The analytics read model: daily buckets (UTC days) of what the console charts, so a year's
 * report reads a few hundred rows per series instead of the log. Counts only: no emails, no
 * names of people. Days are `date` columns, read as text (`day::text`) so no time zone moves them.
 */

export const ANALYTICS_PROJECTION = 'analytics';

const schema = readModelSchema(ANALYTICS_PROJECTION);

/** Accounts registered and deleted each day; accounts on a day are the running sum of the difference. */
@Entity({ schema, name: 'user_days' })
export class UserDayRecord {
  @PrimaryColumn({ type: 'date' })
  day!: string;

  @Column({ type: 'integer', default: 0 })
  registered!: number;

  @Column({ type: 'integer', default: 0 })
  deleted!: number;
}

/** Money received and refunded each day, in cents. */
@Entity({ schema, name: 'revenue_days' })
export class RevenueDayRecord {
  @PrimaryColumn({ type: 'date' })
  day!: string;

  @Column({ type: 'bigint', default: 0 })
  received_cents!: string;

  @Column({ type: 'bigint', default: 0 })
  refunded_cents!: string;

  /** Payments received that day. */
  @Column({ type: 'integer', default: 0 })
  transactions!: number;
}

/** Each payment's amount, from its initiation: what its success adds to the day's revenue. */
@Entity({ schema, name: 'payment_amounts' })
export class PaymentAmountRecord {
  @PrimaryColumn({ type: 'text' })
  payment_id!: string;

  @Column({ type: 'bigint' })
  amount_cents!: string;
}

/** Who holds a paid subscription now, and to which plan: what a move or an expiry leaves. */
@Entity({ schema, name: 'subscribers' })
export class SubscriberRecord {
  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  plan_id!: string;
}

/** A paid plan's subscriptions each day: taken up (new or moved in), left (moved out or ended), ended. */
@Entity({ schema, name: 'plan_days' })
export class PlanDayRecord {
  @PrimaryColumn({ type: 'date' })
  day!: string;

  @PrimaryColumn({ type: 'text' })
  plan_id!: string;

  @Column({ type: 'integer', default: 0 })
  gained!: number;

  @Column({ type: 'integer', default: 0 })
  lost!: number;

  /** Subscriptions that ended (expired, cancelled, unpaid or deleted with the account): the churn. */
  @Column({ type: 'integer', default: 0 })
  ended!: number;
}

/** Plans by name, and whether staff archived them (archived plans show only while they have figures). */
@Entity({ schema, name: 'plans' })
export class AnalyticsPlanRecord {
  @PrimaryColumn({ type: 'text' })
  plan_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;
}

/** Models by display name, and the name hosts report them by (the package's name). */
@Entity({ schema, name: 'models' })
export class AnalyticsModelRecord {
  @PrimaryColumn({ type: 'text' })
  model_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Index()
  @Column({ type: 'text', nullable: true })
  model_name!: string | null;
}

/** Model downloads per day and user: a period's unique users are the distinct users of its rows. */
@Entity({ schema, name: 'model_days' })
export class ModelDayRecord {
  @PrimaryColumn({ type: 'date' })
  day!: string;

  @PrimaryColumn({ type: 'text' })
  model_id!: string;

  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'integer', default: 0 })
  downloads!: number;
}

/** A device's latest cumulative figures per model and hour, as reported: what the next report adds to. */
@Entity({ schema, name: 'usage_hours' })
export class UsageHourRecord {
  @PrimaryColumn({ type: 'text' })
  device_id!: string;

  @PrimaryColumn({ type: 'text' })
  model!: string;

  @PrimaryColumn({ type: 'timestamptz' })
  hour!: Date;

  @Column({ type: 'integer' })
  requests!: number;

  @Column({ type: 'bigint' })
  tokens!: string;
}

/** What customers' devices ran per day (of the hour run), model and user: requests and tokens. */
@Entity({ schema, name: 'usage_days' })
export class UsageDayRecord {
  @PrimaryColumn({ type: 'date' })
  day!: string;

  @PrimaryColumn({ type: 'text' })
  model!: string;

  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'integer', default: 0 })
  requests!: number;

  @Column({ type: 'bigint', default: 0 })
  tokens!: string;
}

export const ANALYTICS_ENTITIES: ReadModelEntities = [
  UserDayRecord,
  RevenueDayRecord,
  PaymentAmountRecord,
  SubscriberRecord,
  PlanDayRecord,
  AnalyticsPlanRecord,
  AnalyticsModelRecord,
  ModelDayRecord,
  UsageHourRecord,
  UsageDayRecord,
];

import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { PaymentEvent, PlanEvent, SubscriptionEvent } from '../../billing/events';
import type { DownloadEvent, ModelEvent } from '../../catalog/events';
import type { UserEventType } from '../../identity/events';
import type { DeviceUsageEvent } from '../../networks/events';
import type { Projection } from '../../platform/projections/projection';
import { createEntityTables } from '../../platform/database/read-side';
import { ANALYTICS_ENTITIES, ANALYTICS_PROJECTION } from './analytics.entities';

/** The free plan is where an account without a subscription is: moving to it ends the paid one. */
const FREE_PLAN = 'free';

/** The events this read model counts, other contexts' types checked against their unions (their events.ts). */
const HANDLED = [
  'UserRegistered',
  'UserDeleted',
  'PlanCreated',
  'PlanUpdated',
  'PlanArchived',
  'PlanRestored',
  'SubscriptionActivated',
  'SubscriptionUpgraded',
  'DowngradeApplied',
  'SubscriptionExpired',
  'PaymentInitiated',
  'PaymentSucceeded',
  'PaymentRefunded',
  'ModelUploadStarted',
  'DownloadRecorded',
  'DeviceUsageReported',
] as const satisfies readonly (
  UserEventType | (PlanEvent | SubscriptionEvent | PaymentEvent | ModelEvent | DownloadEvent | DeviceUsageEvent)['type']
)[];

type Handled = (typeof HANDLED)[number];

/** The id after the stream's category: `subscription-<user id>` → the user id. */
const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** The UTC day an event happened on. */
const dayOf = (event: RecordedEvent) => event.occurredAt.toISOString().slice(0, 10);

/**
 * The console's analytics (issue 15 §4) as daily counters: one small upsert per event, so the
 * report reads buckets, never the log. Reads event types of identity, billing and catalog as
 * stored; it needs no personal field, so nothing here is decrypted.
 */
export const analyticsProjection: Projection = {
  name: ANALYTICS_PROJECTION,
  // 2: devices' usage per model (hosts' usage reports), and models by the name hosts report.
  version: 2,
  handles: HANDLED,
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, ANALYTICS_ENTITIES),
  async apply(db: PoolClient, schema: string, event: RecordedEvent) {
    const day = dayOf(event);
    const id = idOf(event.streamId);
    /** Adds to a daily counter row, creating it at zero first. */
    const bump = (table: string, key: Record<string, string>, add: Record<string, number>) => {
      const keys = Object.keys(key);
      const columns = [...keys, ...Object.keys(add)];
      const sets = Object.keys(add).map((c) => `${c} = ${table}.${c} + EXCLUDED.${c}`);
      return db.query(
        `INSERT INTO ${schema}.${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${sets.join(', ')}`,
        [...Object.values(key), ...Object.values(add)],
      );
    };
    /** The user's paid subscription now moves to `planId` (or ends, when that is the free plan or null). */
    const subscriptionMoves = async (planId: string | null) => {
      const { rows } = await db.query<{ plan_id: string }>(`SELECT plan_id FROM ${schema}.subscribers WHERE user_id = $1`, [id]);
      const from = rows[0]?.plan_id ?? null;
      const to = planId === FREE_PLAN ? null : planId;
      if (from === to) return;
      if (from) await bump('plan_days', { day, plan_id: from }, { gained: 0, lost: 1, ended: to ? 0 : 1 });
      if (to) await bump('plan_days', { day, plan_id: to }, { gained: 1, lost: 0, ended: 0 });
      if (to) {
        await db.query(
          `INSERT INTO ${schema}.subscribers (user_id, plan_id) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET plan_id = EXCLUDED.plan_id`,
          [id, to],
        );
      } else await db.query(`DELETE FROM ${schema}.subscribers WHERE user_id = $1`, [id]);
    };
    const data = event.data as Record<string, unknown>;
    switch (event.type as Handled) {
      case 'UserRegistered':
        return void (await bump('user_days', { day }, { registered: 1, deleted: 0 }));
      case 'UserDeleted':
        return void (await bump('user_days', { day }, { registered: 0, deleted: 1 }));
      case 'PlanCreated': {
        const { planId, terms } = data as { planId: string; terms: { name: string } };
        await db.query(
          `INSERT INTO ${schema}.plans (plan_id, name) VALUES ($1, $2) ON CONFLICT (plan_id) DO UPDATE SET name = EXCLUDED.name`,
          [planId, terms.name],
        );
        return;
      }
      case 'PlanUpdated': {
        const { planId, changes } = data as { planId: string; changes: { name?: string } };
        if (changes.name !== undefined) await db.query(`UPDATE ${schema}.plans SET name = $2 WHERE plan_id = $1`, [planId, changes.name]);
        return;
      }
      case 'PlanArchived':
      case 'PlanRestored':
        await db.query(`UPDATE ${schema}.plans SET archived = $2 WHERE plan_id = $1`, [id, event.type === 'PlanArchived']);
        return;
      case 'SubscriptionActivated':
        return subscriptionMoves((data as { planId: string }).planId);
      case 'SubscriptionUpgraded':
      case 'DowngradeApplied':
        return subscriptionMoves((data as { toPlanId: string }).toPlanId);
      case 'SubscriptionExpired':
        return subscriptionMoves(null);
      case 'PaymentInitiated':
        await db.query(`INSERT INTO ${schema}.payment_amounts (payment_id, amount_cents) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
          id,
          (data as { amountCents: number }).amountCents,
        ]);
        return;
      case 'PaymentSucceeded': {
        const { rows } = await db.query<{ amount_cents: string }>(
          `SELECT amount_cents FROM ${schema}.payment_amounts WHERE payment_id = $1`,
          [id],
        );
        return void (await bump(
          'revenue_days',
          { day },
          { received_cents: Number(rows[0]?.amount_cents ?? 0), refunded_cents: 0, transactions: 1 },
        ));
      }
      case 'PaymentRefunded':
        return void (await bump(
          'revenue_days',
          { day },
          { received_cents: 0, refunded_cents: (data as { amountCents: number }).amountCents, transactions: 0 },
        ));
      case 'ModelUploadStarted': {
        const { modelId, model } = data as { modelId: string; model: { displayName: string; name: string } };
        await db.query(
          `INSERT INTO ${schema}.models (model_id, name, model_name) VALUES ($1, $2, $3)
           ON CONFLICT (model_id) DO UPDATE SET name = EXCLUDED.name, model_name = EXCLUDED.model_name`,
          [modelId, model.displayName, model.name],
        );
        return;
      }
      case 'DownloadRecorded': {
        const { kind, ref } = data as { kind: 'desktop' | 'model'; ref: string };
        if (kind === 'model') await bump('model_days', { day, model_id: ref, user_id: id }, { downloads: 1 });
        return;
      }
      case 'DeviceUsageReported': {
        // Reports carry an hour's cumulative figures: the day gets what grew since the last one.
        const usage = data as unknown as DeviceUsageEvent['data'];
        const tokens = usage.promptTokens + usage.completionTokens;
        const key = [usage.deviceId, usage.model, usage.hour];
        const { rows } = await db.query<{ requests: number; tokens: string }>(
          `SELECT requests, tokens FROM ${schema}.usage_hours WHERE device_id = $1 AND model = $2 AND hour = $3`,
          key,
        );
        const before = rows[0];
        await db.query(
          `INSERT INTO ${schema}.usage_hours (device_id, model, hour, requests, tokens) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (device_id, model, hour) DO UPDATE SET requests = EXCLUDED.requests, tokens = EXCLUDED.tokens`,
          [...key, usage.requests, tokens],
        );
        await bump(
          'usage_days',
          { day: usage.hour.slice(0, 10), model: usage.model, user_id: usage.userId },
          { requests: Math.max(0, usage.requests - (before?.requests ?? 0)), tokens: Math.max(0, tokens - Number(before?.tokens ?? 0)) },
        );
        return;
      }
    }
  },
};

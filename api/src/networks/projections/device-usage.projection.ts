import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import type { UserEventType } from '../../identity/events';
import { createEntityTables } from '../../platform/database/read-side';
import type { Projection } from '../../platform/projections/projection';
import type { DeviceUsageEvent } from '../domain/device-usage.decider';
import { DEVICE_USAGE_EVENT_TYPES } from '../events';
import { DEVICE_USAGE_ENTITIES, DEVICE_USAGE_PROJECTION } from './device-usage.entities';

export { DEVICE_USAGE_PROJECTION };

/** Identity's event that takes a deleted account's usage with it, as its devices go. */
const USER_DELETED = 'UserDeleted' satisfies UserEventType;

/**
 * Each report replaces the row of its (device, model, hour): the events carry cumulative
 * figures that only grow, so the row is always the latest and a replay gives the same rows.
 */
export const deviceUsageProjection: Projection = {
  name: DEVICE_USAGE_PROJECTION,
  version: 1,
  handles: [...DEVICE_USAGE_EVENT_TYPES, USER_DELETED],
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, DEVICE_USAGE_ENTITIES),

  async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
    if (recorded.type === USER_DELETED) {
      await db.query(`DELETE FROM ${schema}.usage_hours WHERE user_id = $1`, [recorded.streamId.slice('user-'.length)]);
      return;
    }
    if (!recorded.streamId.startsWith('usage-')) return;
    const { deviceId, userId, hour, model, requests, promptTokens, completionTokens, busyMs } = (recorded as unknown as DeviceUsageEvent)
      .data;
    await db.query(
      `INSERT INTO ${schema}.usage_hours (device_id, model, hour, user_id, requests, prompt_tokens, completion_tokens, busy_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (device_id, model, hour) DO UPDATE SET requests = EXCLUDED.requests, prompt_tokens = EXCLUDED.prompt_tokens,
         completion_tokens = EXCLUDED.completion_tokens, busy_ms = EXCLUDED.busy_ms`,
      [deviceId, model, hour, userId, requests, promptTokens, completionTokens, busyMs],
    );
  },
};

import { Inject, Injectable } from '@nestjs/common';
import type { DeviceUsage, UsageFigures } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';
import { readModelSchema } from '../../platform/projections/projection';
import { UNNAMED_DEVICE } from '../domain/device.decider';
import { DEVICE_USAGE_PROJECTION } from '../projections/device-usage.entities';
import { DeviceDirectory } from './devices/device-directory';

const USAGE = `${readModelSchema(DEVICE_USAGE_PROJECTION)}.usage_hours`;
const DAY_MS = 86_400_000;

/** Summed figures as PostgreSQL answers them (sums of bigint are numeric, read as text). */
interface FigureSums {
  requests: string;
  prompt_tokens: string;
  completion_tokens: string;
  busy_ms: string;
}

const SUMS = `coalesce(sum(requests), 0) AS requests, coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
  coalesce(sum(completion_tokens), 0) AS completion_tokens, coalesce(sum(busy_ms), 0) AS busy_ms`;

const figuresOf = (row: FigureSums | undefined): UsageFigures => ({
  requests: Number(row?.requests ?? 0),
  prompt_tokens: Number(row?.prompt_tokens ?? 0),
  completion_tokens: Number(row?.completion_tokens ?? 0),
  busy_ms: Number(row?.busy_ms ?? 0),
});

/**
 * A customer's device usage over a window of whole UTC days ending today: per day (every day,
 * zeros included), per model and per device, from the device usage read model. Raw SQL: sums
 * per period, which an entity cannot express; each query is bounded by the user's index range.
 */
@Injectable()
export class DeviceUsageQuery {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly devices: DeviceDirectory,
  ) {}

  async usage(userId: string, windowDays: number, now: Date): Promise<DeviceUsage> {
    const to = now.toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - (windowDays - 1) * DAY_MS).toISOString().slice(0, 10);
    const range = [userId, `${from}T00:00:00Z`];
    const pool = this.database.pool;
    const [days, models, devices, names] = await Promise.all([
      pool.query<FigureSums & { day: string }>(
        `SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${SUMS} FROM ${USAGE}
          WHERE user_id = $1 AND hour >= $2::timestamptz GROUP BY 1`,
        range,
      ),
      pool.query<FigureSums & { model: string }>(
        `SELECT model, ${SUMS} FROM ${USAGE} WHERE user_id = $1 AND hour >= $2::timestamptz
          GROUP BY model ORDER BY sum(prompt_tokens + completion_tokens) DESC, model`,
        range,
      ),
      pool.query<FigureSums & { device_id: string }>(
        `SELECT device_id, ${SUMS} FROM ${USAGE} WHERE user_id = $1 AND hour >= $2::timestamptz
          GROUP BY device_id ORDER BY sum(prompt_tokens + completion_tokens) DESC, device_id`,
        range,
      ),
      this.devices.devicesOf(userId),
    ]);
    const byDay = new Map(days.rows.map((row) => [row.day, row]));
    const dayList = Array.from({ length: windowDays }, (_, i) => {
      const date = new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10);
      return { date, ...figuresOf(byDay.get(date)) };
    });
    const nameOf = new Map(names.map((device) => [device.id, device.name]));
    const totals = dayList.reduce(
      (sum, day) => ({
        requests: sum.requests + day.requests,
        prompt_tokens: sum.prompt_tokens + day.prompt_tokens,
        completion_tokens: sum.completion_tokens + day.completion_tokens,
        busy_ms: sum.busy_ms + day.busy_ms,
      }),
      figuresOf(undefined),
    );
    return {
      window_days: windowDays,
      from,
      to,
      totals,
      days: dayList,
      models: models.rows.map((row) => ({ model: row.model, ...figuresOf(row) })),
      devices: devices.rows.map((row) => ({
        device_id: row.device_id,
        device_name: nameOf.get(row.device_id) || UNNAMED_DEVICE,
        ...figuresOf(row),
      })),
    };
  }
}

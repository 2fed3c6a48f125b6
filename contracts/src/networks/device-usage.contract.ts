import { z } from 'zod';
import { integer } from '../common/fields';

/**
 * What a desktop host ran, reported by the device itself: per model and UTC hour, the hour's
 * cumulative figures so far. A report's key is (device, model, hour): sending it again, or a
 * later one with larger figures, replaces what the platform holds, so nothing counts twice.
 * Counts and durations only: a report never carries prompt or answer text.
 */

/** Reports in one POST /devices/usage-reports/ call. */
export const USAGE_REPORTS_PER_CALL = 500;
/** The oldest hour the platform takes, and the longest window a plan can show. */
export const USAGE_HISTORY_MAX_DAYS = 90;
/** How far ahead of the platform's clock a device's hour may be (its clock runs fast). */
export const USAGE_CLOCK_SKEW_MS = 10 * 60_000;
/** A UTC hour as sent: a whole hour, `2026-11-27T06:00:00Z` or `...T06:00:00.000Z`. */
export const USAGE_HOUR_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00(\.000)?Z$/;
/** A model as the host names it (its package name): letters, digits and `._:/-`, no spaces. */
export const USAGE_MODEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

/** One (model, hour) of the calling device: its cumulative figures for that hour. */
export const UsageReport = z
  .object({
    model: z.string({ error: 'Model must be text' }).regex(USAGE_MODEL_PATTERN, 'Model must be a model name (letters, digits, . _ : / -)'),
    hour: z
      .string({ error: 'Hour must be text' })
      .regex(USAGE_HOUR_PATTERN, 'Hour must be a whole UTC hour, like 2026-11-27T06:00:00Z')
      .refine((v) => !Number.isNaN(Date.parse(v)), 'Hour must be a real date'),
    requests: integer('Requests', { min: 0, max: 10_000_000 }),
    prompt_tokens: integer('Prompt tokens', { min: 0, max: 1_000_000_000 }),
    completion_tokens: integer('Completion tokens', { min: 0, max: 1_000_000_000 }),
    // An hour of work on up to 100 lanes at once.
    busy_ms: integer('Busy milliseconds', { min: 0, max: 360_000_000 }),
  })
  .strict()
  .meta({ id: 'UsageReport' });
export type UsageReport = z.output<typeof UsageReport>;

/** POST /devices/usage-reports/ (device tokens only). */
export const UsageReportsRequest = z
  .object({
    reports: z
      .array(UsageReport, { error: 'Reports must be a list' })
      .min(1, 'Reports must hold at least one report')
      .max(USAGE_REPORTS_PER_CALL, `Reports must hold at most ${USAGE_REPORTS_PER_CALL} reports`),
  })
  .strict()
  .meta({ id: 'UsageReportsRequest' });
export type UsageReportsRequest = z.output<typeof UsageReportsRequest>;

/** How many of the reports changed what the platform holds (a resend changes nothing). */
export const UsageReportsAnswer = z.object({ received: z.number().int(), recorded: z.number().int() }).meta({ id: 'UsageReportsAnswer' });
export type UsageReportsAnswer = z.output<typeof UsageReportsAnswer>;

const figures = {
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  busy_ms: z.number().int(),
};
export const UsageFigures = z.object(figures).meta({ id: 'UsageFigures' });
export type UsageFigures = z.output<typeof UsageFigures>;

/** The devices' usage over the plan's window (GET /users/usage-stats/ `usage`). */
export const DeviceUsage = z
  .object({
    window_days: z.number().int().meta({ description: "The plan's window: 7 days on Free, 90 on Pro and Enterprise." }),
    from: z.string().meta({ description: 'The first UTC day of the window (YYYY-MM-DD).' }),
    to: z.string().meta({ description: 'The last UTC day of the window, today (YYYY-MM-DD).' }),
    totals: UsageFigures,
    /** Every day of the window, oldest first, zeros included. */
    days: z.array(z.object({ date: z.string(), ...figures })),
    models: z.array(z.object({ model: z.string(), ...figures })),
    devices: z.array(z.object({ device_id: z.string(), device_name: z.string(), ...figures })),
  })
  .meta({ id: 'DeviceUsage' });
export type DeviceUsage = z.output<typeof DeviceUsage>;

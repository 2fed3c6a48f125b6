import { USAGE_CLOCK_SKEW_MS, USAGE_HISTORY_MAX_DAYS } from '@meshwork/contracts';
import type { Decider, DomainEvent } from '../../platform/domain/decider';
import { ruleBroken } from '../../platform/domain/errors';

/**
 * What one device ran in one UTC hour (stream `usage-<device id>-<YYYYMMDDHH>`): per model,
 * the hour's cumulative figures as the device last reported them. A stream per device-hour
 * keeps each load a handful of events however long the device lives.
 *
 * Figures only grow within an hour, so the latest report is the largest: each figure is
 * the maximum of what was held and what came. A resend, a duplicate or a late older report
 * changes nothing and records nothing; nothing is ever counted twice.
 */

export interface UsageFigures {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  busyMs: number;
}

export type DeviceUsageEvent = DomainEvent<
  'DeviceUsageReported',
  { deviceId: string; userId: string; hour: string; model: string } & UsageFigures
>;

export type DeviceUsageCommand = {
  type: 'ReportUsage';
  at: Date;
  deviceId: string;
  userId: string;
  /** The hour as an ISO timestamp, `2026-11-27T06:00:00.000Z`. */
  hour: string;
  reports: ({ model: string } & UsageFigures)[];
};

export interface DeviceUsageState {
  /** The cumulative figures held per model. */
  models: ReadonlyMap<string, UsageFigures>;
}

const HOUR_MS = 3_600_000;
const FIELDS = ['requests', 'promptTokens', 'completionTokens', 'busyMs'] as const;

/** The stream id's tail for an hour: its device and `YYYYMMDDHH`. */
export const usageStreamKey = (deviceId: string, hour: string) => `${deviceId}-${hour.slice(0, 13).replace(/[-T]/g, '')}`;

/**
 * Why an hour cannot be taken at `at`, or null: in the future beyond the clock skew a device
 * may have, or older than the longest window any plan shows (nobody could ever see it).
 */
export function usageHourProblem(hour: string, at: Date): string | null {
  const start = Date.parse(hour);
  if (start > at.getTime() + USAGE_CLOCK_SKEW_MS) return 'Hour is in the future: check the device clock';
  if (start + HOUR_MS <= at.getTime() - USAGE_HISTORY_MAX_DAYS * 24 * HOUR_MS)
    return `Hour is more than ${USAGE_HISTORY_MAX_DAYS} days old`;
  return null;
}

function decide(command: DeviceUsageCommand, state: DeviceUsageState): DeviceUsageEvent[] {
  const problem = usageHourProblem(command.hour, command.at);
  if (problem) throw ruleBroken(problem, 'hour');
  const { deviceId, userId, hour } = command;
  const events: DeviceUsageEvent[] = [];
  for (const { model, ...reported } of command.reports) {
    const held = state.models.get(model);
    if (held && FIELDS.every((field) => reported[field] <= held[field])) continue;
    const figures = Object.fromEntries(FIELDS.map((field) => [field, Math.max(reported[field], held?.[field] ?? 0)])) as Record<
      (typeof FIELDS)[number],
      number
    >;
    events.push({ type: 'DeviceUsageReported', data: { deviceId, userId, hour, model, ...figures } });
  }
  return events;
}

function evolve(state: DeviceUsageState, event: DeviceUsageEvent): DeviceUsageState {
  const { model, requests, promptTokens, completionTokens, busyMs } = event.data;
  const models = new Map(state.models);
  models.set(model, { requests, promptTokens, completionTokens, busyMs });
  return { models };
}

export const deviceUsageDecider: Decider<DeviceUsageCommand, DeviceUsageEvent, DeviceUsageState> = {
  initialState: () => ({ models: new Map() }),
  decide,
  evolve,
};

import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { UsageReport } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../../platform/database/database';
import { AggregateRepository } from '../../../platform/domain/aggregate-repository';
import { forbidden, ruleBroken } from '../../../platform/domain/errors';
import { EVENT_STORE, type EventStore } from '../../../platform/event-store/event-store.port';
import { readYourWrites } from '../../../platform/projections/projection-waiter';
import {
  type DeviceUsageCommand,
  deviceUsageDecider,
  type DeviceUsageEvent,
  type DeviceUsageState,
  usageHourProblem,
  usageStreamKey,
} from '../../domain/device-usage.decider';
import { DEVICE_USAGE_PROJECTION } from '../../projections/device-usage.entities';

export const DEVICE_USAGE_STREAM = 'usage';

export class ReportDeviceUsage {
  constructor(
    readonly userId: string,
    /** The device of the caller's token: null for a web session, which runs nothing. */
    readonly deviceId: string | null,
    readonly reports: readonly UsageReport[],
    readonly at: Date,
  ) {}
}

/**
 * A host's usage reports: the whole call is checked first (every hour in range, no (model,
 * hour) twice), so a bad report refuses the call and records none of it; then one append per
 * hour, on the device-hour's stream. Answers how many reports changed anything.
 */
@CommandHandler(ReportDeviceUsage)
export class ReportDeviceUsageHandler implements ICommandHandler<ReportDeviceUsage, number> {
  private readonly usage: AggregateRepository<DeviceUsageCommand, DeviceUsageEvent, DeviceUsageState>;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
  ) {
    this.usage = new AggregateRepository(store, deviceUsageDecider, DEVICE_USAGE_STREAM);
  }

  async execute({ userId, deviceId, reports, at }: ReportDeviceUsage): Promise<number> {
    if (!deviceId) throw forbidden('Usage is reported by signed-in devices: sign this device in with a device code.');
    const byHour = new Map<string, DeviceUsageCommand['reports']>();
    const seen = new Set<string>();
    reports.forEach((report, index) => {
      const hour = new Date(report.hour).toISOString();
      const problem = usageHourProblem(hour, at);
      if (problem) throw ruleBroken(problem, `reports.${index}.hour`);
      if (seen.has(`${report.model}\u0000${hour}`))
        throw ruleBroken(
          `Report ${index + 1} repeats model ${report.model} for ${hour}: send each model once per hour`,
          `reports.${index}`,
        );
      seen.add(`${report.model}\u0000${hour}`);
      const figures = {
        model: report.model,
        requests: report.requests,
        promptTokens: report.prompt_tokens,
        completionTokens: report.completion_tokens,
        busyMs: report.busy_ms,
      };
      const list = byHour.get(hour) ?? [];
      if (list.length === 0) byHour.set(hour, list);
      list.push(figures);
    });
    let recorded = 0;
    let position = 0;
    for (const [hour, hourReports] of byHour) {
      const command: DeviceUsageCommand = { type: 'ReportUsage', at, deviceId, userId, hour, reports: hourReports };
      const result = await this.usage.execute(usageStreamKey(deviceId, hour), command);
      recorded += result.events.length;
      position = Math.max(position, result.position);
    }
    if (position > 0) await readYourWrites(this.database.pool, [DEVICE_USAGE_PROJECTION], position);
    return recorded;
  }
}

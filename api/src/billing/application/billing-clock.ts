import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { logger } from '../../platform/logging/logger';
import { BillingContext } from './billing-context';
import { BillingQueries } from './billing.query';
import { SettleBillingPeriod } from './settle-billing-period.handler';

/**
 * Every BILLING_CLOCK_SECONDS, finds the subscriptions whose period (or grace) has ended and
 * sends each a SettleBillingPeriod command. The commands are idempotent, so several api
 * instances may tick at once.
 */
@Injectable()
export class BillingClock implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly billing: BillingContext,
    private readonly queries: BillingQueries,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(new Date()), this.billing.config.BILLING_CLOCK_SECONDS * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Settles everything due at `now`; returns how many subscriptions changed. */
  tick(now: Date): Promise<number> {
    this.running ??= this.settle(now)
      .catch((error: unknown) => {
        logger.error({ err: error }, 'billing clock failed; retrying at the next tick');
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  private async settle(now: Date): Promise<number> {
    let changed = 0;
    for (const due of await this.queries.endedPeriods(now)) {
      try {
        changed += (await this.commands.execute<SettleBillingPeriod, boolean>(new SettleBillingPeriod(due.user_id, now))) ? 1 : 0;
      } catch (error) {
        logger.error({ err: error, userId: due.user_id }, 'could not settle a billing period');
      }
    }
    return changed;
  }
}

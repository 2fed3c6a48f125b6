import { Inject, Injectable } from '@nestjs/common';
import type { Kafka } from 'kafkajs';
import { RELAY_NAME } from '../../../projections/src/relay/kafka-relay';
import { projectionLag } from '../../../projections/src/runner/projection-lag';
import { DATABASE, type Database } from '../platform/database/database';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.port';
import { type ComponentHealth, probe } from '../platform/health/component-health';
import { MAILER, type Mailer } from '../platform/mail/mailer';
import { kafkaHealth } from '../platform/messaging/kafka';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../platform/payments/payment-provider';
import { KAFKA } from '../platform/platform.module';
import { OBJECT_STORAGE, type ObjectStorage } from '../platform/storage/object-storage';
import { readModelNames } from '../read-models';

export interface SystemStatus {
  status: 'ok' | 'down';
  checkedAt: string;
  components: Record<string, ComponentHealth>;
}

/** Asks every component how it is, all at once, each within its own deadline. */
@Injectable()
export class HealthService {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
    @Inject(KAFKA) private readonly kafka: Kafka | null,
  ) {}

  async systemStatus(): Promise<SystemStatus> {
    const [postgres, eventStore, projections, kafka, objectStorage, payments, mail] = await Promise.all([
      this.postgres(),
      this.eventStore(),
      this.projections(),
      kafkaHealth(this.kafka),
      this.storage.health(),
      this.payments.health(),
      this.mailer.health(),
    ]);
    const components = { postgres, event_store: eventStore, projections, kafka, object_storage: objectStorage, payments, mail };
    const down = Object.values(components).some((c) => c.required && c.status === 'down');
    return { status: down ? 'down' : 'ok', checkedAt: new Date().toISOString(), components };
  }

  private async postgres(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await this.database.pool.query('SELECT 1');
    });
    return {
      status: result.up ? 'up' : 'down',
      required: true,
      mode: this.database.mode,
      latencyMs: result.latencyMs,
      detail: result.detail,
    };
  }

  private async eventStore(): Promise<ComponentHealth> {
    let headPosition = 0;
    const result = await probe(async () => {
      headPosition = await this.store.headPosition();
    });
    return { status: result.up ? 'up' : 'down', required: true, mode: 'postgres', headPosition, detail: result.detail };
  }

  private async projections(): Promise<ComponentHealth> {
    let lag: Awaited<ReturnType<typeof projectionLag>> = [];
    const result = await probe(async () => {
      lag = await projectionLag(this.database.pool, [...readModelNames, ...(this.kafka ? [RELAY_NAME] : [])]);
    });
    return {
      status: result.up ? 'up' : 'down',
      required: true,
      mode: 'postgres',
      detail: result.detail,
      items: lag.map((l) => ({
        name: l.name,
        position: l.position,
        positionsBehind: l.positionsBehind,
        millisecondsBehind: l.millisecondsBehind,
      })),
    };
  }
}

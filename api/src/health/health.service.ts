import { Inject, Injectable } from '@nestjs/common';
import type { Kafka } from 'kafkajs';
import { DATABASE, type Database } from '../platform/database/database';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.port';
import { type ComponentHealth, probe } from '../platform/health/component-health';
import { MAILER, type Mailer } from '../platform/mail/mailer';
import { kafkaHealth } from '../platform/messaging/kafka';
import { RELAY_STATUS, type RelayStatus } from '../platform/messaging/relay-status.port';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../platform/payments/payment-provider';
import { KAFKA } from '../platform/platform.module';
import { OBJECT_STORAGE, type ObjectStorage } from '../platform/storage/object-storage';
import { logConsumerNames, projectionsHealth } from './projection-health';

export interface SystemStatus {
  /** 'degraded' (HTTP 503) when any required component is not up. */
  status: 'ok' | 'degraded';
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
    @Inject(RELAY_STATUS) private readonly relay: RelayStatus,
  ) {}

  async systemStatus(): Promise<SystemStatus> {
    const [postgres, eventStore, projections, kafka, objectStorage, payments, mail] = await Promise.all([
      this.postgres(),
      this.eventStore(),
      projectionsHealth(this.database.pool, logConsumerNames(this.relay)),
      kafkaHealth(this.kafka),
      this.storage.health(),
      this.payments.health(),
      this.mailer.health(),
    ]);
    const components = { postgres, event_store: eventStore, projections, kafka, object_storage: objectStorage, payments, mail };
    const degraded = Object.values(components).some((c) => c.required && c.status === 'down');
    return { status: degraded ? 'degraded' : 'ok', checkedAt: new Date().toISOString(), components };
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
}

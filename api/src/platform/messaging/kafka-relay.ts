import type { Admin, Kafka, Producer } from 'kafkajs';
import type { Pool } from 'pg';
import { HEADER_EVENT_ID, HEADER_EVENT_TYPE, type RecordedEvent, toIntegrationMessage, topicFor } from '@meshwork/contracts';
import type { EventStore } from '../event-store/event-store.port';
import { ExclusiveFollower, type FollowerOptions, type LogConsumer, NotOwnerError } from '../projections/exclusive-follower';
import { isTransientPostgresError } from '../projections/retry-policy';
import type { RelayStatus } from './relay-status.port';

export interface RelayOptions extends FollowerOptions {
  /** Topic name prefix: `<prefix>.<stream category>`. */
  topicPrefix?: string;
  partitions?: number;
  /** Test seam: runs after Kafka acknowledged a batch and before the checkpoint moves. */
  afterSend?: (events: RecordedEvent[]) => void;
}

export const RELAY_NAME = 'kafka_relay';

/** The relay as health and the console see it: there is one exactly when Kafka is configured (see ProjectionsHost). */
export function relayStatusFor(kafka: Kafka | null): RelayStatus {
  return { consumerName: kafka ? RELAY_NAME : null };
}

/**
 * Publishes every event to Kafka, keyed by stream id so each aggregate's events stay in
 * order within a partition. At least once: the checkpoint moves only after Kafka has
 * acknowledged the batch, so a crash in between re-sends it and consumers dedupe by the
 * event id header. The producer is idempotent, so Kafka's own retries add no duplicates.
 */
export class KafkaRelay extends ExclusiveFollower {
  constructor(pool: Pool, store: EventStore, kafka: Kafka, options: RelayOptions = {}) {
    super(pool, store, new RelayConsumer(pool, kafka, options), options);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.consumerRef.close();
  }

  private get consumerRef(): RelayConsumer {
    return (this as unknown as { consumer: RelayConsumer }).consumer;
  }
}

class RelayConsumer implements LogConsumer {
  readonly name = RELAY_NAME;
  private producer: Producer | null = null;
  private admin: Admin | null = null;
  private readonly knownTopics = new Set<string>();

  constructor(
    private readonly pool: Pool,
    private readonly kafka: Kafka,
    private readonly options: RelayOptions,
  ) {}

  async prepare(): Promise<number> {
    await this.close();
    this.producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    this.admin = this.kafka.admin();
    await Promise.all([this.producer.connect(), this.admin.connect()]);
    await this.pool.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
      this.name,
    ]);
    return Number(rows[0]!.position);
  }

  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    const byTopic = new Map<string, { key: string; value: string; headers: Record<string, string> }[]>();
    for (const event of events) {
      const topic = topicFor(event.streamId, this.options.topicPrefix);
      const messages = byTopic.get(topic) ?? [];
      messages.push({
        key: event.streamId,
        value: JSON.stringify(toIntegrationMessage(event)),
        headers: { [HEADER_EVENT_ID]: event.eventId, [HEADER_EVENT_TYPE]: event.type },
      });
      byTopic.set(topic, messages);
    }
    await this.ensureTopics([...byTopic.keys()]);
    await this.producer!.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    this.options.afterSend?.(events);

    return this.moveCheckpoint(checkpoint, events[events.length - 1]!.position);
  }

  /** Leaves the event unpublished (a recorded decision to skip it). */
  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.moveCheckpoint(checkpoint, event.position);
  }

  /** Kafka unreachable or busy (kafkajs marks those retriable), or PostgreSQL unreachable. */
  isTransient(error: unknown): boolean {
    for (let e = error as { retriable?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
      if (e.retriable === true || isTransientPostgresError(e)) return true;
    }
    return false;
  }

  private async moveCheckpoint(from: number, to: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1 AND position = $3',
      [this.name, to, from],
    );
    if (rowCount === 0) throw new NotOwnerError('relay checkpoint moved under us: another relay is running');
    return to;
  }

  async close(): Promise<void> {
    const [producer, admin] = [this.producer, this.admin];
    this.producer = null;
    this.admin = null;
    await Promise.allSettled([producer?.disconnect(), admin?.disconnect()]);
  }

  private async ensureTopics(topics: string[]): Promise<void> {
    let missing = topics.filter((t) => !this.knownTopics.has(t));
    if (missing.length === 0) return;
    // Asking first: kafkajs logs an ERROR for every topic it is asked to create that exists.
    const existing = new Set(await this.admin!.listTopics());
    missing.filter((t) => existing.has(t)).forEach((t) => this.knownTopics.add(t));
    missing = missing.filter((t) => !existing.has(t));
    if (missing.length === 0) return;
    const partitions = this.options.partitions ?? 3;
    // It waits until their leaders are known.
    await this.admin!.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
    }).catch((error: { errors?: { type?: string }[] }) => {
      // Another relay (or an earlier run) made them a moment ago: that is what we wanted.
      if (!error.errors?.length || !error.errors.every((e) => e.type === 'TOPIC_ALREADY_EXISTS')) throw error;
    });
    missing.forEach((t) => this.knownTopics.add(t));
  }
}

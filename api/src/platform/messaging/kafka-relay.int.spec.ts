import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { eventStoreMigrations } from '../event-store/event-store.schema';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { createTestDatabase, type TestDatabase } from '@meshwork/testkit/api/test-database';
import type { IntegrationMessage } from '@meshwork/contracts';
import { checkpointMigrations } from '../projections/checkpoints.schema';
import { eventually } from '@meshwork/testkit/eventually';

function brokers(): string[] {
  const value = process.env.KAFKA_BROKERS;
  if (!value) throw new Error('KAFKA_BROKERS is not set. Run the tests with `npm test`, which starts Kafka on loopback (infra/).');
  return value.split(',');
}

function startRelay(env: Record<string, string>) {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', path.join(__dirname, 'testing', 'relay-child.ts')], {
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  return { child, exited };
}

describe('Kafka relay against the real broker', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const kafka = new Kafka({ clientId: 'relay-spec', brokers: brokers(), logLevel: logLevel.NOTHING });
  const children: ReturnType<typeof startRelay>[] = [];

  beforeEach(async () => {
    db = await createTestDatabase([...eventStoreMigrations, ...checkpointMigrations]);
    store = new PostgresEventStore(db.pool);
  });
  afterEach(async () => {
    children.splice(0).forEach((c) => c.child.kill('SIGKILL'));
    await store.close();
    await db.drop();
  });

  async function relayCheckpoint(): Promise<number> {
    const { rows } = await db.pool.query<{ position: string }>("SELECT position FROM projection_checkpoints WHERE name = 'kafka_relay'");
    return Number(rows[0]?.position ?? 0);
  }

  it('resumes after a crash between send and checkpoint with no event lost, and strips private data', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const appended: string[] = [];
    for (let i = 0; i < 10; i++) {
      const userEvents = Array.from({ length: 10 }, (_, n) =>
        anEvent({ type: 'ProfileUpdated', data: { n, passwordHash: 'secret-hash' } }),
      );
      await store.append(`user-${i}`, userEvents, 0);
      await store.append(
        `plan-${i}`,
        Array.from({ length: 10 }, () => anEvent({ type: 'PlanUpdated' })),
        0,
      );
      appended.push(...userEvents.map((e) => e.eventId));
    }
    const head = await store.headPosition();

    const crashing = startRelay({ DATABASE_URL: db.url, TOPIC_PREFIX: prefix, CRASH_AFTER_SEND_AT: '120' });
    children.push(crashing);
    expect(await crashing.exited).toBe('SIGKILL');
    expect(await relayCheckpoint()).toBe(100); // batch 101-150 reached Kafka, its checkpoint did not

    children.push(startRelay({ DATABASE_URL: db.url, TOPIC_PREFIX: prefix }));
    await eventually(async () => (await relayCheckpoint()) === head, 60_000, 'relay to catch up');

    const consumer = kafka.consumer({ groupId: `${prefix}-reader` });
    const received: { topic: string; key: string; eventId: string; message: IntegrationMessage }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topics: [`${prefix}.user`, `${prefix}.plan`], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        received.push({
          topic,
          key: message.key!.toString(),
          eventId: message.headers!['event-id']!.toString(),
          message: JSON.parse(message.value!.toString()) as IntegrationMessage,
        });
      },
    });
    try {
      await eventually(async () => new Set(received.map((r) => r.eventId)).size === head, 60_000, 'every event consumed');
    } finally {
      await consumer.disconnect();
    }

    // At least once: the re-sent batch shows up twice; deduped by event id, nothing is missing.
    expect(received.length).toBeGreaterThan(head);
    const unique = new Map(received.map((r) => [r.eventId, r]));
    expect(unique.size).toBe(head);
    expect(appended.every((id) => unique.get(id)?.topic === `${prefix}.user`)).toBe(true);

    // Per stream order holds within its partition.
    for (let i = 0; i < 10; i++) {
      const versions = received.filter((r) => r.key === `user-${i}`).map((r) => r.message.streamVersion);
      const firstSeen = versions.filter((v, index) => versions.indexOf(v) === index);
      expect(firstSeen).toEqual(Array.from({ length: 10 }, (_, n) => n + 1));
    }

    const sample = unique.get(appended[0]!)!.message;
    expect(sample.data).toEqual({ n: 0 });
    expect(JSON.stringify(sample)).not.toMatch(/secret-hash|127\.0\.0\.1|jest/);
  }, 180_000); // two relay processes and a consumer group: room for both 60 s waits above to fail with their message
});

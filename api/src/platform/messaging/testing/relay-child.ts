/**
 * The Kafka relay in a process of its own, so tests can kill it for real.
 * CRASH_AFTER_SEND_AT: die right after Kafka acknowledged the batch holding that position,
 * before the checkpoint moves — the moment that produces duplicates.
 */
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../event-store/postgres-event-store';
import { KafkaRelay } from '../kafka-relay';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const kafka = new Kafka({ clientId: 'relay-test', brokers: process.env.KAFKA_BROKERS!.split(','), logLevel: logLevel.NOTHING });
const crashAt = Number(process.env.CRASH_AFTER_SEND_AT ?? 0);
const relay = new KafkaRelay(pool, new PostgresEventStore(pool), kafka, {
  batchSize: 50,
  idleWaitMs: 100,
  topicPrefix: process.env.TOPIC_PREFIX,
  afterSend: (events) => {
    if (events.some((e) => e.position === crashAt)) process.kill(process.pid, 'SIGKILL');
  },
});
relay.start();
process.on('SIGTERM', () => void relay.stop().then(() => process.exit(0)));

#!/usr/bin/env node
// Kafka smoke test with the same client the app uses (kafkajs 2.2.4).
//
// WHY: kafkajs is unmaintained and speaks old protocol versions; Kafka 4.x
// removed many old request versions (KIP-896). This script is how the broker
// version in infra/lib/kafka.mjs was chosen, and it stays here so anyone can
// re-check a version bump:  node infra/scripts/kafka-smoke.mjs [brokers]
//
// It exercises what the relay/projections rely on: topic admin, an idempotent
// producer, a transactional producer, a consumer group that commits offsets,
// and a second consumer in the same group resuming from the committed offset.
// Exits 0 when every step passed, 1 otherwise (prints one line per step).
import { Kafka, logLevel } from 'kafkajs';

const brokers = (process.argv[2] || process.env.KAFKA_BROKERS || '127.0.0.1:19092').split(',');
const kafka = new Kafka({ clientId: 'infra-smoke', brokers, logLevel: logLevel.NOTHING });
const run = Date.now().toString(36);
const topic = `infra-smoke-${run}`;
const groupId = `infra-smoke-group-${run}`;
const results = [];

async function step(name, fn) {
  const t = Date.now();
  try {
    const detail = await fn();
    results.push(true);
    console.log(`ok   ${name} (${Date.now() - t} ms)${detail ? ` ${detail}` : ''}`);
  } catch (err) {
    results.push(false);
    console.log(`FAIL ${name} (${Date.now() - t} ms): ${err?.type ?? ''} ${err?.message ?? err}`);
  }
}

// Consume `count` messages with a fresh consumer in `groupId`, then disconnect.
async function consume(count) {
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 1000 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const got = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timeout: got ${got.length}/${count}`)), 30000);
    consumer
      .run({
        eachMessage: async ({ message }) => {
          got.push(message.value.toString());
          if (got.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        },
      })
      .catch(reject);
  });
  await consumer.disconnect(); // commits the resolved offsets (autoCommit)
  return got;
}

const admin = kafka.admin();
await step('admin connect + describeCluster', async () => {
  await admin.connect();
  const c = await admin.describeCluster();
  return `brokers=${c.brokers.length} controller=${c.controller}`;
});
await step('createTopics', async () => {
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
});

await step('idempotent producer send', async () => {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic,
    acks: -1,
    messages: Array.from({ length: 10 }, (_, i) => ({ key: `k${i % 3}`, value: `idem-${i}` })),
  });
  await producer.disconnect();
});

await step('transactional producer commit', async () => {
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    transactionalId: `infra-smoke-tx-${run}`,
  });
  await producer.connect();
  const tx = await producer.transaction();
  await tx.send({
    topic,
    messages: [
      { key: 'tx', value: 'tx-1' },
      { key: 'tx', value: 'tx-2' },
    ],
  });
  await tx.commit();
  await producer.disconnect();
});

await step('consumer group reads all 12', async () => {
  const got = await consume(12);
  return `got=${got.length}`;
});

await step('group offsets committed', async () => {
  const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
  const committed = offsets[0].partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
  // Transaction markers take an offset each, so committed >= 12.
  if (committed < 12) throw new Error(`committed=${committed}`);
  return `committed=${committed}`;
});

await step('second consumer resumes after committed offset', async () => {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({ topic, messages: [{ key: 'late', value: 'late-1' }] });
  await producer.disconnect();
  const got = await consume(1);
  if (got[0] !== 'late-1') throw new Error(`expected late-1, got ${got[0]}`);
});

await step('fetchTopicOffsets + listGroups + describeGroups', async () => {
  const offsets = await admin.fetchTopicOffsets(topic);
  const high = offsets.reduce((n, p) => n + Number(p.high), 0);
  const { groups } = await admin.listGroups();
  if (!groups.some((g) => g.groupId === groupId)) throw new Error('group not listed');
  const described = await admin.describeGroups([groupId]);
  return `high=${high} groupState=${described.groups[0].state}`;
});

await step('seek to offset 0 replays a partition', async () => {
  const consumer = kafka.consumer({ groupId: `${groupId}-seek` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: false });
  let first;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), 30000);
    consumer
      .run({
        eachMessage: async ({ message }) => {
          first ??= message.offset;
          clearTimeout(timer);
          resolve();
        },
      })
      .catch(reject);
    // seek is only valid after run(); it overrides fromBeginning:false.
    consumer.seek({ topic, partition: 0, offset: '0' });
    consumer.seek({ topic, partition: 1, offset: '0' });
  });
  await consumer.disconnect();
  if (first !== '0') throw new Error(`first offset ${first}`);
});

await step('deleteTopics', async () => {
  await admin.deleteTopics({ topics: [topic] });
});
await admin.disconnect().catch(() => {});

const failed = results.filter((r) => !r).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

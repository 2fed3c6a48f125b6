import { Kafka, logLevel } from 'kafkajs';
import type { AppConfig } from '../config/config';
import { type ComponentHealth, probe } from '../health/component-health';

/** The Kafka client when KAFKA_BROKERS is set; null in embedded mode, where Kafka is off. */
export function kafkaFor(config: AppConfig, clientId: string): Kafka | null {
  if (!config.KAFKA_BROKERS) return null;
  return new Kafka({
    clientId,
    brokers: config.KAFKA_BROKERS.split(','),
    logLevel: logLevel.ERROR,
    connectionTimeout: 2_000,
    retry: { retries: 2, initialRetryTime: 200 },
  });
}

export async function kafkaHealth(kafka: Kafka | null): Promise<ComponentHealth> {
  if (!kafka)
    return { status: 'off', required: false, mode: 'off', detail: 'KAFKA_BROKERS not set; the entitlement gateway reads the event log' };
  const admin = kafka.admin();
  const result = await probe(async () => {
    await admin.connect();
    await admin.describeCluster();
  }, 3_000);
  await admin.disconnect().catch(() => undefined);
  return { status: result.up ? 'up' : 'down', required: true, mode: 'kafka', latencyMs: result.latencyMs, detail: result.detail };
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_API_VERSION, WEBHOOK_TEST_EVENT } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';
import { DELIVERIES_CHANNEL } from '../infrastructure/deliveries.schema';
import type { DeliveryRow } from './webhooks.query';

/**
 * The deliveries a customer asks for (the log's own are written by the projection): a test
 * event, and a resend, which repeats a delivery's body and event id as a new series of attempts.
 */
@Injectable()
export class DeliveryOutbox {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async test(endpointId: string, userId: string, at: Date): Promise<DeliveryRow> {
    const eventId = randomUUID();
    const body = JSON.stringify({
      id: eventId,
      type: WEBHOOK_TEST_EVENT,
      api_version: WEBHOOK_API_VERSION,
      created_at: at.toISOString(),
      data: { endpoint_id: endpointId, message: 'A test event sent from Meshwork.' },
    });
    return this.insert({ endpointId, userId, eventId, eventType: WEBHOOK_TEST_EVENT, body, resendOf: null });
  }

  async resend(original: DeliveryRow): Promise<DeliveryRow> {
    const { endpoint_id, user_id, event_id, event_type, body, id } = original;
    return this.insert({ endpointId: endpoint_id, userId: user_id, eventId: event_id, eventType: event_type, body, resendOf: id });
  }

  private async insert(d: {
    endpointId: string;
    userId: string;
    eventId: string;
    eventType: string;
    body: string;
    resendOf: string | null;
  }): Promise<DeliveryRow> {
    const { rows } = await this.database.pool.query<DeliveryRow>(
      `INSERT INTO webhook_deliveries (id, endpoint_id, user_id, event_id, event_type, body, status, next_attempt_at, created_at, resend_of)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', now(), now(), $7) RETURNING *`,
      [randomUUID(), d.endpointId, d.userId, d.eventId, d.eventType, d.body, d.resendOf],
    );
    await this.database.pool.query(`SELECT pg_notify('${DELIVERIES_CHANNEL}', '')`);
    return rows[0]!;
  }
}

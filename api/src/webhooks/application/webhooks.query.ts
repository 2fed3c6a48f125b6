import { Inject, Injectable } from '@nestjs/common';
import type { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint } from '@meshwork/contracts';
import { In } from 'typeorm';
import { DATABASE, type Database } from '../../platform/database/database';
import { notFound } from '../../platform/domain/errors';
import { readSide } from '../../platform/database/read-side';
import { WebhookEndpointRecord, WEBHOOKS_ENTITIES } from '../projections/webhooks.entities';

export const DELIVERIES_PER_PAGE = 25;

/** A delivery row as the outbox holds it (a write-side table, without an entity). */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  user_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: WebhookDelivery['status'];
  attempts: number;
  response_status: number | null;
  latency_ms: number | null;
  error: string | null;
  response_body_excerpt: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  const { id, event_id, event_type, status, attempts, response_status, latency_ms, error } = row;
  return {
    ...{ id, event_id, event_type, status, attempts, response_status, latency_ms, error },
    created_at: row.created_at.toISOString(),
    last_attempt_at: iso(row.last_attempt_at),
    next_attempt_at: status === 'pending' || status === 'retrying' ? iso(row.next_attempt_at) : null,
  };
}

export function toEndpoint(record: WebhookEndpointRecord): WebhookEndpoint {
  const { id, url, description, event_types, enabled, disabled_reason, secret_hint } = record;
  return { id, url, description, event_types, enabled, disabled_reason, created_at: record.created_at.toISOString(), secret_hint };
}

/** A customer's endpoints (the read model) and their deliveries (the outbox). */
@Injectable()
export class WebhookQueries {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async endpointsOf(userId: string): Promise<WebhookEndpoint[]> {
    const records = await (await readSide(this.database.pool, WEBHOOKS_ENTITIES)).getRepository(WebhookEndpointRecord).find({
      where: { user_id: userId },
      order: { created_at: 'ASC' },
    });
    return records.map(toEndpoint);
  }

  /** The caller's endpoint; anyone else's is not found. */
  async endpoint(userId: string, id: string): Promise<WebhookEndpointRecord> {
    const record = await (
      await readSide(this.database.pool, WEBHOOKS_ENTITIES)
    )
      .getRepository(WebhookEndpointRecord)
      .findOneBy({ id, user_id: userId });
    if (!record) throw notFound('Webhook endpoint not found.');
    return record;
  }

  /** The enabled endpoints of these users, or of everyone (null): id and owner. */
  async enabledEndpoints(userIds: readonly string[] | null): Promise<Pick<WebhookEndpointRecord, 'id' | 'user_id'>[]> {
    return (await readSide(this.database.pool, WEBHOOKS_ENTITIES)).getRepository(WebhookEndpointRecord).find({
      select: { id: true, user_id: true },
      where: { enabled: true, ...(userIds ? { user_id: In([...userIds]) } : {}) },
    });
  }

  // Raw SQL below: the outbox is a write-side table (deliveries.schema.ts), not a read model.

  async deliveries(userId: string, endpointId: string, page: number): Promise<{ count: number; results: WebhookDelivery[] }> {
    await this.endpoint(userId, endpointId);
    const { rows } = await this.database.pool.query<DeliveryRow & { total: string }>(
      `SELECT *, count(*) OVER () AS total FROM webhook_deliveries WHERE endpoint_id = $1
        ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [endpointId, DELIVERIES_PER_PAGE, (page - 1) * DELIVERIES_PER_PAGE],
    );
    const count = rows[0]
      ? Number(rows[0].total)
      : Number(
          (
            await this.database.pool.query<{ n: string }>('SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1', [
              endpointId,
            ])
          ).rows[0]!.n,
        );
    return { count, results: rows.map(toDelivery) };
  }

  async delivery(userId: string, id: string): Promise<DeliveryRow> {
    const { rows } = await this.database.pool.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = $1 AND user_id = $2', [
      id,
      userId,
    ]);
    if (!rows[0]) throw notFound('Delivery not found.');
    return rows[0];
  }

  deliveryDetail(row: DeliveryRow): WebhookDeliveryDetail {
    return { ...toDelivery(row), request_body: row.body, response_body_excerpt: row.response_body_excerpt };
  }
}

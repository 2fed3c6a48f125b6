import type { Migration } from '../../platform/database/migrations';

/** Announces new deliveries to the senders (NOTIFY). */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

/**
 * The outbox of webhook deliveries and their attempts. Write-side tables, not a read model:
 * a delivery's progress is not in the log, and a rebuilt projection must find the rows it
 * already wrote (one per endpoint and event, so a rebuild or a retry never sends a new id).
 */
export const webhookDeliveryMigrations: Migration[] = [
  {
    id: '0900-webhook-deliveries',
    sql: `CREATE TABLE webhook_deliveries (
            id uuid PRIMARY KEY,
            endpoint_id uuid NOT NULL,
            user_id text NOT NULL,
            -- The source event's id (or a test event's): what receivers de-duplicate on.
            event_id uuid NOT NULL,
            event_type text NOT NULL,
            body text NOT NULL,
            -- pending | retrying | succeeded | failed
            status text NOT NULL,
            attempts integer NOT NULL DEFAULT 0,
            next_attempt_at timestamptz,
            -- While a sender holds it; an expired lease (a sender killed mid-delivery) is sent again.
            lease_until timestamptz,
            response_status integer,
            latency_ms integer,
            error text,
            response_body_excerpt text,
            created_at timestamptz NOT NULL,
            last_attempt_at timestamptz,
            -- A resend: the delivery it repeats (the same event id, a new series of attempts).
            resend_of uuid
          );
          CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (endpoint_id, event_id) WHERE resend_of IS NULL;
          -- The sender takes each endpoint's due rows from its own range, and counts its leases.
          CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status IN ('pending', 'retrying');
          CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id) WHERE lease_until IS NOT NULL;
          CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);
          CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
          CREATE TABLE webhook_delivery_attempts (
            delivery_id uuid NOT NULL,
            attempt integer NOT NULL,
            at timestamptz NOT NULL,
            response_status integer,
            latency_ms integer NOT NULL,
            error text,
            PRIMARY KEY (delivery_id, attempt)
          );
          -- Consecutive failed attempts per endpoint since its last success: the auto-disable rule.
          CREATE TABLE webhook_endpoint_failures (
            endpoint_id uuid PRIMARY KEY,
            consecutive integer NOT NULL,
            since timestamptz NOT NULL
          );`,
  },
];

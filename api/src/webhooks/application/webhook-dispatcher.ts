import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { PoolClient } from 'pg';
import { UserDirectory } from '../../identity';
import { logger } from '../../platform/logging/logger';
import { MAILER, type Mailer } from '../../platform/mail/mailer';
import { type AttemptOutcome, sendWebhook } from '../infrastructure/webhook-sender';
import { signatureHeader } from '../infrastructure/secret-box';
import type { StoredSecret } from '../projections/webhooks.entities';
import { WEBHOOKS_PROJECTION } from '../projections/webhooks.entities';
import { readModelSchema } from '../../platform/projections/projection';
import { AttemptRecorder, type FailureCount } from './attempt-recorder';
import { DisableWebhookEndpoint } from './endpoint-commands.handler';
import { DELIVERIES_CHANNEL } from '../infrastructure/deliveries.schema';
import { WebhooksContext } from './webhooks-context';

const MINUTE = 60_000;
/** How often deliveries of disabled or deleted endpoints are closed and old ones pruned. */
const SWEEP_MS = 30_000;
const HOUR = 60 * MINUTE;
/** How soon a lost NOTIFY listener is replaced. */
const RELISTEN_MS = 5_000;

export interface DispatchOptions {
  /**
   * Deliveries in flight in this process: room for every endpoint's `perEndpoint` in a burst
   * (bench:webhooks: 80 busy endpoints). They hold no database connection (see the class comment).
   */
  concurrency: number;
  /** Deliveries in flight per endpoint (across processes, by their leases). */
  perEndpoint: number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** How often to look for due deliveries when no NOTIFY says so sooner. */
  pollMs: number;
  /** Waits before each retry (jittered ±15%): about 30 hours in all. */
  retryDelaysMs: readonly number[];
  /** An endpoint with this many failed attempts in a row, spanning failureSpanMs, is switched off. */
  failureLimit: number;
  failureSpanMs: number;
  /** Deliveries older than this leave the log. */
  keepMs: number;
}

export const DISPATCH_DEFAULTS: DispatchOptions = {
  concurrency: 200,
  perEndpoint: 2,
  timeoutMs: 10_000,
  maxBodyBytes: 4096,
  pollMs: 500,
  retryDelaysMs: [30_000, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 6 * HOUR, 8 * HOUR, 8 * HOUR],
  failureLimit: 20,
  failureSpanMs: 24 * HOUR,
  keepMs: 30 * 24 * HOUR,
};

/** A claimed delivery with its endpoint as it is now (null when deleted). */
interface Claimed {
  id: string;
  endpoint_id: string;
  user_id: string;
  event_id: string;
  body: string;
  attempts: number;
  url: string | null;
  enabled: boolean | null;
  secrets: StoredSecret[] | null;
}

const ENDPOINTS = `${readModelSchema(WEBHOOKS_PROJECTION)}.endpoints`;
/** PostgreSQL's code for a table that does not exist. */
const UNDEFINED_TABLE = '42P01';

/**
 * Sends due deliveries, in every api process: each claims rows with a lease (FOR UPDATE SKIP
 * LOCKED, so instances share the work), at most `perEndpoint` per endpoint, so a hanging
 * endpoint holds two slots and no more. A process killed mid-delivery leaves a lease that
 * expires, and the delivery is sent again with the same event id (at least once).
 *
 * Database connections, whatever the deliveries in flight: at most 4 of the process's pool.
 * The listener holds 1; the loop claims and sweeps one statement at a time (1); the attempts
 * are written in batches, one at a time (1, AttemptRecorder); stopping a failing endpoint
 * (its command and its owner's address) runs one endpoint at a time (1). A delivery itself
 * touches the database only through the recorder.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  options: DispatchOptions = DISPATCH_DEFAULTS;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private wake: (() => void) | null = null;
  /** Set by signal(): a claim is worth making again. */
  private dirty = false;
  private listener: PoolClient | null = null;
  private lastListen = 0;
  /** Gives the listener's connection back, once. */
  private unlisten: (() => void) | null = null;
  private lastSweep = 0;
  /** Secrets opened, by their sealed form: a burst to one endpoint opens its secret once (bench:webhooks). */
  private secrets = new Map<string, string>();
  /** Failing endpoints are stopped one after another (see the connection count above). */
  private stops: Promise<void> = Promise.resolve();
  private readonly recorder: AttemptRecorder;

  constructor(
    private readonly context: WebhooksContext,
    private readonly commands: CommandBus,
    private readonly users: UserDirectory,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {
    this.recorder = new AttemptRecorder(context.database.pool);
  }

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.stops;
    this.unlisten?.();
  }

  private get pool() {
    return this.context.database.pool;
  }

  /** Listens for new deliveries; a lost listener is replaced at most every few seconds (polling covers the gap). */
  private async listen(): Promise<void> {
    this.lastListen = Date.now();
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      return;
    }
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (this.listener === client) this.listener = null;
      client.release(true);
    };
    client.on('notification', () => this.signal());
    client.on('error', drop);
    try {
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      if (dropped) return;
      this.listener = client;
      this.unlisten = drop;
    } catch {
      drop();
    }
  }

  /** Something may be due (a NOTIFY, a slot freed): claim again, now or right after the claim running. */
  private signal(): void {
    this.dirty = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      if (!this.listener && Date.now() - this.lastListen > RELISTEN_MS) await this.listen();
      this.dirty = false;
      try {
        const free = this.options.concurrency - this.inFlight.size;
        const claimed = free > 0 ? await this.claim(free) : [];
        for (const delivery of claimed) {
          const sending: Promise<void> = this.deliver(delivery)
            .catch((error: unknown) => logger.error({ err: error, delivery: delivery.id }, 'webhook delivery failed to record'))
            .finally(() => {
              this.inFlight.delete(sending);
              this.signal();
            });
          this.inFlight.add(sending);
        }
        if (Date.now() - this.lastSweep > SWEEP_MS) await this.sweep();
        if (claimed.length === free && free > 0) continue;
      } catch (error) {
        // Endpoints come from the webhooks read model: on a fresh database its projection has not
        // made it yet when this starts, and nothing can be due before it has.
        const notBuiltYet = (error as { code?: string }).code === UNDEFINED_TABLE;
        if (!this.stopping && !notBuiltYet) logger.warn({ err: error }, 'webhook dispatcher could not claim deliveries');
      }
      if (this.dirty) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /**
   * Leases due deliveries, endpoint by endpoint in random order (no endpoint first every time),
   * no more than `perEndpoint` in flight per endpoint counting other processes' leases. Each
   * endpoint's rows come from its own index range, so a backlog elsewhere costs nothing here.
   */
  private async claim(limit: number): Promise<Claimed[]> {
    const leaseMs = this.options.timeoutMs + 5_000;
    const { rows } = await this.pool.query<Claimed>(
      `WITH picked AS (
         SELECT d.id, e.id AS endpoint_id, e.url, e.enabled, e.secrets
           FROM (SELECT id, url, enabled, secrets FROM ${ENDPOINTS} WHERE enabled ORDER BY random()) e
         CROSS JOIN LATERAL (
           SELECT x.id FROM webhook_deliveries x
            WHERE x.endpoint_id = e.id AND x.status IN ('pending', 'retrying') AND x.next_attempt_at <= now()
              AND (x.lease_until IS NULL OR x.lease_until <= now())
            ORDER BY x.next_attempt_at
            LIMIT greatest(0, $2 - (SELECT count(*) FROM webhook_deliveries b WHERE b.endpoint_id = e.id AND b.lease_until > now()))
            FOR UPDATE SKIP LOCKED
         ) d
         LIMIT $1
       )
       UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => $3)
         FROM picked WHERE d.id = picked.id
       RETURNING d.id, d.endpoint_id, d.user_id, d.event_id, d.body, d.attempts, picked.url, picked.enabled, picked.secrets`,
      [limit, this.options.perEndpoint, leaseMs / 1000],
    );
    return rows;
  }

  private async deliver(delivery: Claimed): Promise<void> {
    // An owner's plan losing webhooks disables their endpoints at once (WebhookPlanFollower), so the claim skips them.
    if (delivery.url === null || !delivery.enabled) {
      await this.finish(delivery, 'failed', null, delivery.url === null ? 'The endpoint was deleted.' : 'The endpoint is disabled.');
      return;
    }
    const now = Date.now();
    const secrets = delivery
      .secrets!.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now)
      .map((s) => this.opened(s.sealed));
    const headers = {
      'Meshwork-Signature': signatureHeader(secrets, Math.floor(now / 1000), delivery.body),
      'Meshwork-Event-Id': delivery.event_id,
      'Meshwork-Delivery-Id': delivery.id,
      'User-Agent': 'Meshwork-Webhooks/1',
    };
    const outcome = await sendWebhook(delivery.url, headers, delivery.body, {
      strict: this.context.strictUrls,
      timeoutMs: this.options.timeoutMs,
      maxBodyBytes: this.options.maxBodyBytes,
    });
    const attempt = delivery.attempts + 1;
    if (outcome.ok) {
      await this.finish(delivery, 'succeeded', outcome, null);
      return;
    }
    const delay = this.options.retryDelaysMs[attempt - 1];
    const failures =
      delay === undefined
        ? await this.finish(delivery, 'failed', outcome, outcome.error)
        : await this.finish(delivery, 'retrying', outcome, outcome.error, Math.round(delay * (0.85 + Math.random() * 0.3)));
    if (
      failures &&
      failures.consecutive >= this.options.failureLimit &&
      Date.now() - failures.since.getTime() >= this.options.failureSpanMs
    ) {
      const stopping = this.stops.then(() => this.stopFailing(delivery, failures));
      this.stops = stopping.catch((error: unknown) =>
        logger.error({ err: error, endpoint: delivery.endpoint_id }, 'could not stop a failing webhook endpoint'),
      );
    }
  }

  private opened(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      if (this.secrets.size >= 10_000) this.secrets = new Map();
      secret = this.context.secrets.open(sealed);
      this.secrets.set(sealed, secret);
    }
    return secret;
  }

  /** Records the attempt (or, with no outcome, ends the delivery unsent); answers the endpoint's failures in a row after a failed one. */
  private finish(
    delivery: Claimed,
    status: 'succeeded' | 'failed' | 'retrying',
    outcome: AttemptOutcome | null,
    error: string | null,
    retryInMs = 0,
  ): Promise<FailureCount | undefined> {
    return this.recorder.record({
      id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      status,
      attempt: delivery.attempts + (outcome ? 1 : 0),
      attempted: outcome !== null,
      response_status: outcome?.status ?? null,
      latency_ms: outcome?.latencyMs ?? null,
      error,
      // PostgreSQL text cannot hold U+0000: an answer's NULs are dropped.
      excerpt: outcome?.bodyExcerpt?.replaceAll('\u0000', '') ?? null,
      retry_secs: retryInMs / 1000,
    });
  }

  /** Past the limit and the span of failures in a row: the endpoint is switched off and its owner told. */
  private async stopFailing(delivery: Claimed, { consecutive, since }: FailureCount): Promise<void> {
    const stopped: boolean = await this.commands.execute(new DisableWebhookEndpoint(delivery.endpoint_id, 'failing', new Date()));
    await this.pool.query('DELETE FROM webhook_endpoint_failures WHERE endpoint_id = $1', [delivery.endpoint_id]);
    if (!stopped) return;
    const owner = (await this.users.namesOf([delivery.user_id])).get(delivery.user_id);
    if (!owner?.email) return;
    await this.mailer.send({
      to: owner.email,
      subject: 'A webhook endpoint was disabled',
      text:
        `Meshwork disabled your webhook endpoint ${delivery.url} after ${consecutive} failed deliveries in a row ` +
        `since ${since.toISOString()}. Events are no longer sent to it. Fix the endpoint, then enable it again under Webhooks in your settings.`,
    });
  }

  /**
   * Closes the deliveries no endpoint will take (disabled or deleted: the claim skips them),
   * and forgets deliveries past keepMs.
   */
  private async sweep(): Promise<void> {
    this.lastSweep = Date.now();
    await this.pool.query(
      `UPDATE webhook_deliveries d
          SET status = 'failed', next_attempt_at = NULL, lease_until = NULL,
              error = CASE WHEN e.id IS NULL THEN 'The endpoint was deleted.' ELSE 'The endpoint is disabled.' END
         FROM webhook_deliveries x LEFT JOIN ${ENDPOINTS} e ON e.id = x.endpoint_id
        WHERE d.id = x.id AND x.status IN ('pending', 'retrying') AND (e.id IS NULL OR NOT e.enabled)
          AND (x.lease_until IS NULL OR x.lease_until <= now())`,
    );
    await this.pool.query(
      `WITH gone AS (DELETE FROM webhook_deliveries WHERE created_at < now() - make_interval(secs => $1) RETURNING id)
       DELETE FROM webhook_delivery_attempts WHERE delivery_id IN (SELECT id FROM gone)`,
      [this.options.keepMs / 1000],
    );
  }
}

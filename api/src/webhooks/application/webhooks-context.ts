import { Inject, Injectable } from '@nestjs/common';
import { plansOfUsers } from '../../billing';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { SECRETS, type Secrets } from '../../platform/config/secrets';
import { DATABASE, type Database } from '../../platform/database/database';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { forbidden, ruleBroken } from '../../platform/domain/errors';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { readYourWrites } from '../../platform/projections/projection-waiter';
import {
  webhookEndpointDecider,
  type WebhookEndpointCommand,
  type WebhookEndpointEvent,
  type WebhookEndpointState,
} from '../domain/webhook-endpoint.decider';
import { SecretBox } from '../infrastructure/secret-box';
import { WEBHOOKS_PROJECTION } from '../projections/webhooks.entities';

export const WEBHOOK_ENDPOINT_STREAM = 'webhookendpoint';

/** The tier from which a plan includes webhooks, for plans stored before the plan's `webhooks` field. */
const ENTERPRISE_TIER = 3;

/** What the webhook handlers, queries and the sender share. */
@Injectable()
export class WebhooksContext {
  readonly endpoints: AggregateRepository<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState>;
  readonly secrets: SecretBox;
  /** Full mode: https only, nothing inside; the embedded default (or WEBHOOKS_ANY_URL) calls any URL. */
  readonly strictUrls: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SECRETS) secrets: Secrets,
    @Inject(DATABASE) readonly database: Database,
    @Inject(EVENT_STORE) store: EventStore,
  ) {
    this.endpoints = new AggregateRepository(store, webhookEndpointDecider, WEBHOOK_ENDPOINT_STREAM);
    this.secrets = new SecretBox(secrets.dataEncryptionKey);
    this.strictUrls = !(config.WEBHOOKS_ANY_URL ?? !config.DATABASE_URL);
  }

  /** Whether the user's plan includes webhooks: its `webhooks` field, or, on plans without it, the Enterprise tier. */
  async planAllows(userId: string): Promise<boolean> {
    return (await this.plansAllowing([userId])).has(userId);
  }

  /** Which of these users' plans include webhooks, in one query. */
  async plansAllowing(userIds: readonly string[]): Promise<Set<string>> {
    const plans = await plansOfUsers(this.database, userIds);
    const allowed = [...plans].filter(([, plan]) => (plan as { webhooks?: boolean }).webhooks ?? plan.tier >= ENTERPRISE_TIER);
    return new Set(allowed.map(([userId]) => userId));
  }

  async requirePlan(userId: string): Promise<void> {
    if (!(await this.planAllows(userId))) throw forbidden('Webhooks are part of the Enterprise plan.');
  }

  /** In full mode an endpoint must be https (its addresses are checked at each delivery). */
  checkUrl(url: string): string {
    if (this.strictUrls && !url.startsWith('https://')) throw ruleBroken('URL must use https.', 'url');
    return url;
  }

  async caughtUp(position: number): Promise<void> {
    if (position > 0) await readYourWrites(this.database.pool, [WEBHOOKS_PROJECTION], position);
  }
}

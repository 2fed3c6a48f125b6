import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The webhooks read model: the endpoints as their owners see them (with their sealed
 * secrets, which only the sender opens), and what the projection must remember to know whose
 * a later event is (a device's owner, a payment's facts, a user's plan).
 */

export const WEBHOOKS_PROJECTION = 'webhooks';

const schema = readModelSchema(WEBHOOKS_PROJECTION);

/** A sealed secret and when it stops signing (null: the current one). */
export interface StoredSecret {
  sealed: string;
  expires_at: string | null;
}

@Entity({ schema, name: 'endpoints' })
@Index(['user_id', 'created_at'])
export class WebhookEndpointRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text', array: true })
  event_types!: string[];

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ type: 'text', nullable: true })
  disabled_reason!: string | null;

  @Column({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'text' })
  secret_hint!: string;

  /** The current secret first, then rolled ones still in their overlap. */
  @Column({ type: 'jsonb' })
  secrets!: StoredSecret[];
}

/** A device's owner (DeviceRevoked does not name them). */
@Entity({ schema, name: 'device_owners' })
export class DeviceOwnerRecord {
  @PrimaryColumn({ type: 'uuid' })
  device_id!: string;

  @Column({ type: 'text' })
  user_id!: string;
}

/** A payment's facts (its later events carry only the outcome). */
@Entity({ schema, name: 'payments' })
export class WebhookPaymentRecord {
  @PrimaryColumn({ type: 'text' })
  payment_id!: string;

  @Column({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  plan_id!: string;

  @Column({ type: 'integer' })
  amount_cents!: number;

  @Column({ type: 'text' })
  currency!: string;
}

/** Each user's plan (a model's access change concerns the users of the plans it names). */
@Entity({ schema, name: 'user_plans' })
@Index(['plan_id'])
export class UserPlanRecord {
  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  plan_id!: string;
}

export const WEBHOOKS_ENTITIES = [
  WebhookEndpointRecord,
  DeviceOwnerRecord,
  WebhookPaymentRecord,
  UserPlanRecord,
] as const satisfies ReadModelEntities;

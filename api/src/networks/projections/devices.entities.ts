import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { DeviceStatus } from '@meshwork/contracts';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The devices read model's table, described once for TypeORM: the projection creates it
 * from this metadata (in whichever schema it fills) and queries read it. Properties are
 * named as the columns, so a record is the row as stored.
 */

export const DEVICES_PROJECTION = 'devices';

const schema = readModelSchema(DEVICES_PROJECTION);

/** A customer's machine, active or revoked (a deleted account's devices are removed). */
@Entity({ schema, name: 'devices' })
@Index(['user_id', 'first_seen_at'])
export class DeviceRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  user_id!: string;

  /** Decrypted on the way in; null once the owner's key is shredded. */
  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text' })
  platform!: string;

  @Column({ type: 'text' })
  app_version!: string;

  @Column({ type: 'text' })
  status!: DeviceStatus;

  /** 'device-grant' or 'login': how it first signed in. */
  @Column({ type: 'text' })
  registered_via!: string;

  @Column({ type: 'timestamptz' })
  first_seen_at!: Date;

  /** Accurate to the hour: DeviceSeen is recorded at most hourly per device. */
  @Column({ type: 'timestamptz' })
  last_seen_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null;

  /** 'user' or 'staff'. */
  @Column({ type: 'text', nullable: true })
  revoked_by!: string | null;

  /** The staff member or user who revoked it (the event's actor). */
  @Column({ type: 'text', nullable: true })
  revoked_by_user_id!: string | null;
}

export const DEVICES_ENTITIES: ReadModelEntities = [DeviceRecord];

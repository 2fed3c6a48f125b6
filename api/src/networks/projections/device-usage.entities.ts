import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';

/**
 * The device usage read model: what each device ran per model and UTC hour, the latest
 * cumulative figures its host reported (never text). The dashboard sums it per day, model and
 * device over the plan's window; rows older than any window stay until a rebuild drops them.
 */

export const DEVICE_USAGE_PROJECTION = 'device_usage';

const schema = readModelSchema(DEVICE_USAGE_PROJECTION);

/** One device, model and hour. */
@Entity({ schema, name: 'usage_hours' })
@Index(['user_id', 'hour'])
export class UsageHourRecord {
  @PrimaryColumn({ type: 'uuid' })
  device_id!: string;

  @PrimaryColumn({ type: 'text' })
  model!: string;

  @PrimaryColumn({ type: 'timestamptz' })
  hour!: Date;

  @Column({ type: 'text' })
  user_id!: string;

  @Column({ type: 'integer' })
  requests!: number;

  @Column({ type: 'bigint' })
  prompt_tokens!: string;

  @Column({ type: 'bigint' })
  completion_tokens!: string;

  @Column({ type: 'bigint' })
  busy_ms!: string;
}

export const DEVICE_USAGE_ENTITIES: ReadModelEntities = [UsageHourRecord];

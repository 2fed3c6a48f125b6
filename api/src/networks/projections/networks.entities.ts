import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';
import type { SuspensionCause } from '../domain/network.events';

/**
 * The networks read model's tables, described once for TypeORM: the projection creates
 * them from this metadata; properties are named as the columns, so a record is the row.
 */

export const NETWORKS_PROJECTION = 'networks';

const schema = readModelSchema(NETWORKS_PROJECTION);

/** A customer's network as it stands (a deleted one is gone; the log keeps it). */
@Entity({ schema, name: 'networks' })
export class NetworkRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Index()
  @Column({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Index()
  @Column({ type: 'text' })
  model_id!: string;

  @Column({ type: 'text' })
  model_name!: string;

  @Column({ type: 'text' })
  status!: 'active' | 'suspended';

  /** Why it is suspended, as the event said (null while active). */
  @Column({ type: 'jsonb', nullable: true })
  suspension!: SuspensionCause | null;

  @Column({ type: 'text', nullable: true })
  host_device_id!: string | null;

  /** The host's LAN certificate (SHA-256 hex) as its device registered it; null: none (or an event from before). */
  @Column({ type: 'text', nullable: true })
  host_certificate_sha256!: string | null;

  @Column({ type: 'timestamptz' })
  created_at!: Date;

  /** The log position of its creation: orders networks created in the same instant. */
  @Column({ type: 'bigint' })
  created_position!: string;
}

/** A client device connected to a network. */
@Entity({ schema, name: 'network_clients' })
export class NetworkClientRecord {
  @PrimaryColumn({ type: 'uuid' })
  network_id!: string;

  @PrimaryColumn({ type: 'text' })
  device_id!: string;

  @Column({ type: 'timestamptz' })
  joined_at!: Date;
}

export const NETWORKS_ENTITIES: ReadModelEntities = [NetworkRecord, NetworkClientRecord];

import { Inject, Injectable } from '@nestjs/common';
import type { Network } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';
import { notFound } from '../../platform/domain/errors';
import { readModelSchema } from '../../platform/projections/projection';
import type { SuspensionCause } from '../domain/network.events';
import { NETWORKS_PROJECTION } from '../projections/networks.entities';

const S = readModelSchema(NETWORKS_PROJECTION);

interface NetworkRow {
  id: string;
  name: string;
  model_name: string;
  status: 'active' | 'suspended';
  suspension: SuspensionCause | null;
  host_device_id: string | null;
  host_certificate_sha256: string | null;
  created_at: Date;
  clients: { device_id: string; joined_at: string }[];
}

/** The networks read model as the customer's calls and the plan-limits follower read it. */
@Injectable()
export class NetworkQueries {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** The customer's networks, oldest first (the order in which a cap keeps them running). */
  async list(userId: string): Promise<Network[]> {
    return (await this.rows('n.user_id = $1', [userId])).map(toNetwork);
  }

  /** One of the customer's networks; anyone else's is not found. */
  async one(userId: string, networkId: string): Promise<Network> {
    const [row] = await this.rows('n.user_id = $1 AND n.id = $2', [userId, networkId]);
    if (!row) throw notFound();
    return toNetwork(row);
  }

  /** How many networks the customer has, suspended ones included. */
  async count(userId: string): Promise<number> {
    const { rows } = await this.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${S}.networks WHERE user_id = $1`, [
      userId,
    ]);
    return rows[0]!.n;
  }

  /** Customers with at least one network; with a model id, those with a network on that model. */
  async owners(modelId?: string): Promise<string[]> {
    const { rows } = await this.database.pool.query<{ user_id: string }>(
      `SELECT DISTINCT user_id FROM ${S}.networks WHERE $1::text IS NULL OR model_id = $1 ORDER BY user_id`,
      [modelId ?? null],
    );
    return rows.map((row) => row.user_id);
  }

  private async rows(where: string, values: unknown[]): Promise<NetworkRow[]> {
    const { rows } = await this.database.pool.query<NetworkRow>(
      `SELECT n.id, n.name, n.model_name, n.status, n.suspension, n.host_device_id, n.host_certificate_sha256, n.created_at,
              coalesce((SELECT jsonb_agg(jsonb_build_object('device_id', c.device_id, 'joined_at', c.joined_at) ORDER BY c.joined_at, c.device_id)
                          FROM ${S}.network_clients c WHERE c.network_id = n.id), '[]'::jsonb) AS clients
         FROM ${S}.networks n WHERE ${where} ORDER BY n.created_position`,
      values,
    );
    return rows;
  }
}

function toNetwork(row: NetworkRow): Network {
  return {
    id: row.id,
    name: row.name,
    model: row.model_name,
    status: row.status,
    suspended_cause: row.suspension?.kind ?? null,
    suspended_reason: row.suspension ? suspensionText(row.suspension, row.model_name) : null,
    host: row.host_device_id,
    host_certificate_sha256: row.host_certificate_sha256,
    clients: {
      count: row.clients.length,
      devices: row.clients.map((c) => ({ device_id: c.device_id, joined_at: new Date(c.joined_at).toISOString() })),
    },
    created_at: row.created_at.toISOString(),
  };
}

/** Why a network is suspended, in the customer's words, naming the plan change. */
export function suspensionText({ kind, change }: SuspensionCause, model: string): string {
  if (kind === 'model_not_allowed') return `Your ${change.planName} plan no longer includes the model ${model}.`;
  switch (change.source) {
    case 'subscription':
      return `Your plan changed to ${change.planName}, which allows fewer networks. Choose which networks to keep.`;
    case 'plan':
      return `The ${change.planName} plan now allows fewer networks. Choose which networks to keep.`;
    case 'customer':
      return `Not among the networks you chose to keep on your ${change.planName} plan.`;
    case 'model':
      return `Above the number of networks your ${change.planName} plan allows. Choose which networks to keep.`;
  }
}

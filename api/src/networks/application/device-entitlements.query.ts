import { Inject, Injectable } from '@nestjs/common';
import type { SignedEntitlements } from '@meshwork/contracts';
import { BILLING_PROJECTION } from '../../billing';
import { CATALOG_PROJECTION } from '../../catalog';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { DATABASE, type Database } from '../../platform/database/database';
import { forbidden } from '../../platform/domain/errors';
import { buildEntitlementDocument, type EntitlementNetwork } from '../domain/entitlement-document';
import { EntitlementSigner } from '../infrastructure/entitlement-signer';
import { NETWORKS_PROJECTION } from '../projections/networks.entities';
import { EntitlementsQuery } from './entitlements.query';
import { NetworkQueries } from './network-queries';

/** The read models a document is made from. */
const SOURCES = [BILLING_PROJECTION, CATALOG_PROJECTION, NETWORKS_PROJECTION];

/**
 * The signed entitlement document of one device: its owner's plan and models, and the
 * networks this device hosts or has joined, with its role in each.
 */
@Injectable()
export class DeviceEntitlements {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    private readonly entitlements: EntitlementsQuery,
    private readonly networks: NetworkQueries,
    private readonly signer: EntitlementSigner,
  ) {}

  async signedFor(caller: { userId: string; deviceId: string | null }, now: Date): Promise<SignedEntitlements> {
    const { userId, deviceId } = caller;
    if (!deviceId) throw forbidden('Entitlements are issued to signed-in devices: sign this device in with a device code.');
    // Read before the inputs: they reflect at least this position, and checkpoints only move
    // forward, so a later document never carries a smaller seq than an earlier one.
    const seq = await this.position();
    const { plan, models } = await this.entitlements.forUser(userId);
    const networks: EntitlementNetwork[] = [];
    for (const network of await this.networks.list(userId)) {
      const role = network.host === deviceId ? 'host' : network.clients.devices.some((c) => c.device_id === deviceId) ? 'client' : null;
      if (role) networks.push({ id: network.id, name: network.name, role, model: network.model, status: network.status });
    }
    const document = buildEntitlementDocument({ issuer: this.config.publicUrl, deviceId, userId, plan, models, networks, now, seq });
    return { token: this.signer.sign(document) };
  }

  /** How far every source read model has applied the log. */
  private async position(): Promise<number> {
    const { rows } = await this.database.pool.query<{ position: string | null }>(
      'SELECT min(position) AS position FROM projection_checkpoints WHERE name = ANY($1)',
      [SOURCES],
    );
    return Number(rows[0]?.position ?? 0);
  }
}

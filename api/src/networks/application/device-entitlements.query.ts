import { Inject, Injectable } from '@nestjs/common';
import type { EntitlementDocument, SignedEntitlements } from '@meshwork/contracts';
import { BILLING_PROJECTION } from '../../billing';
import { CATALOG_PROJECTION } from '../../catalog';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { DATABASE, type Database } from '../../platform/database/database';
import { forbidden, unavailable } from '../../platform/domain/errors';
import { buildEntitlementDocument } from '../domain/entitlement-document';
import { EntitlementSigner } from '../infrastructure/entitlement-signer';
import { NETWORKS_PROJECTION } from '../projections/networks.entities';
import { networksOfDevice, networksOfUsers } from './entitlement-stream/networks-of-users';
import { EntitlementsQuery } from './entitlements.query';

/** The read models a document is made from. */
export const ENTITLEMENT_SOURCES = [BILLING_PROJECTION, CATALOG_PROJECTION, NETWORKS_PROJECTION];

/** A signed-in device and its owner. */
export interface DeviceRef {
  userId: string;
  deviceId: string;
}

/**
 * The signed entitlement document of a device: its owner's plan and models, and the
 * networks this device hosts or has joined, with its role in each. GET /devices/entitlements/
 * asks for one device, the stream for many at once, with the same queries.
 */
@Injectable()
export class DeviceEntitlements {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    private readonly entitlements: EntitlementsQuery,
    private readonly signer: EntitlementSigner,
  ) {}

  async signedFor(caller: { userId: string; deviceId: string | null }, now: Date): Promise<SignedEntitlements> {
    const { userId, deviceId } = caller;
    if (!deviceId) throw forbidden('Entitlements are issued to signed-in devices: sign this device in with a device code.');
    const [document] = await this.documentsFor([{ userId, deviceId }], now);
    return { token: this.signer.sign(document!) };
  }

  /** The unsigned documents of `devices`, in their order: three queries however many there are (the plans' models are cached). */
  async documentsFor(devices: readonly DeviceRef[], now: Date): Promise<EntitlementDocument[]> {
    // Read before the inputs: they reflect at least this position, and checkpoints only move
    // forward, so a later document never carries a smaller seq than an earlier one.
    const seq = await this.position();
    const userIds = [...new Set(devices.map((d) => d.userId))];
    const entitlements = await this.entitlements.forUsers(userIds);
    const networks = await networksOfUsers(this.database, userIds);
    return devices.map(({ userId, deviceId }) => {
      const mine = entitlements.get(userId);
      if (!mine) throw unavailable('Plans are not loaded yet. Please try again in a moment.');
      const { plan, models } = mine;
      return buildEntitlementDocument({
        issuer: this.config.publicUrl,
        deviceId,
        userId,
        plan,
        models,
        networks: networksOfDevice(networks.get(userId)!, deviceId),
        now,
        seq,
      });
    });
  }

  /** How far every source read model has applied the log. */
  private async position(): Promise<number> {
    const { rows } = await this.database.pool.query<{ position: string | null }>(
      'SELECT min(position) AS position FROM projection_checkpoints WHERE name = ANY($1)',
      [ENTITLEMENT_SOURCES],
    );
    return Number(rows[0]?.position ?? 0);
  }
}

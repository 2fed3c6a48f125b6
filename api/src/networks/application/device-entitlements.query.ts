import { Inject, Injectable } from '@nestjs/common';
import type { EntitlementDocument, SignedEntitlements } from '@meshwork/contracts';
import { BILLING_PROJECTION } from '../../billing';
import { CATALOG_PROJECTION } from '../../catalog';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { DATABASE, type Database } from '../../platform/database/database';
import { forbidden, unavailable } from '../../platform/domain/errors';
import { buildEntitlementDocument, documentContent } from '../domain/entitlement-document';
import { EntitlementRevisions } from '../infrastructure/entitlement-revisions';
import { EntitlementSigner } from '../infrastructure/entitlement-signer';
import { NETWORKS_PROJECTION } from '../projections/networks.entities';
import { hostsOf, networksOfDevice, networksOfUsers } from './entitlement-stream/networks-of-users';
import { EntitlementsQuery } from './entitlements.query';

/** Each read is newer than the last: only builds racing for the same devices make a second one. */
const READS_BEFORE_GIVING_UP = 3;

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
  private readonly revisions: EntitlementRevisions;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    private readonly entitlements: EntitlementsQuery,
    private readonly signer: EntitlementSigner,
  ) {
    this.revisions = new EntitlementRevisions(database.pool);
  }

  async signedFor(caller: { userId: string; deviceId: string | null }, now: Date): Promise<SignedEntitlements> {
    const { userId, deviceId } = caller;
    if (!deviceId) throw forbidden('Entitlements are issued to signed-in devices: sign this device in with a device code.');
    const [document] = await this.documentsFor([{ userId, deviceId }], now);
    return { token: this.signer.sign(document!) };
  }

  /**
   * The unsigned documents of `devices`, in their order: five queries however many there are. A document's seq rises only when its content changes
   * (entitlement-revisions.ts); a batch read before another build of one of its devices was
   * issued is read again.
   */
  async documentsFor(devices: readonly DeviceRef[], now: Date): Promise<EntitlementDocument[]> {
    for (let attempt = 1; attempt <= READS_BEFORE_GIVING_UP; attempt += 1) {
      const documents = await this.read(devices, now);
      const position = documents[0]?.seq ?? 0;
      const seqs = await this.revisions.seqsOf(documents.map((d) => ({ deviceId: d.sub, content: documentContent(d), position })));
      if (!seqs.includes(null)) return documents.map((document, n) => ({ ...document, seq: seqs[n]! }));
    }
    throw unavailable('Entitlements are changing right now. Please try again in a moment.');
  }

  /** The documents as the read models stand, each with the read models' position as its seq. */
  private async read(devices: readonly DeviceRef[], now: Date): Promise<EntitlementDocument[]> {
    // Read before the inputs: they reflect at least this position.
    const position = await this.position();
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
        hosts: hostsOf(networks.get(userId)!),
        now,
        seq: position,
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

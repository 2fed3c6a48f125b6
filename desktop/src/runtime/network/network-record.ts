/**
 * What this device remembers of its LAN network (lan-network.json in the data directory): the
 * network, its role in it, and the certificates it pinned. The facade and both roles save
 * through one store, so the file and what the runtime holds never differ.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { type EntitledNetwork, type EntitlementDocument, LanNetworkInfo } from '@meshwork/contracts';
import { JsonFile } from '../platform/json-file';

export const MemberRecord = z.object({ device_id: z.string(), name: z.string(), certificate_sha256: z.string(), joined_at: z.string() });
export type MemberRecord = z.output<typeof MemberRecord>;

const NetworkRecord = z.object({
  network: LanNetworkInfo,
  role: z.enum(['host', 'client']),
  /** The host: the clients it admitted, their certificates pinned. */
  members: z.array(MemberRecord).default([]),
  /** A client: where its host was last reached, and the host's pinned certificate. */
  host: z.object({ address: z.string(), port: z.number().int(), certificate_sha256: z.string() }).nullable().default(null),
  /** Whether a signed document has listed this network for this device (after that, its absence means it ended). */
  confirmed: z.boolean().default(false),
});
export type NetworkRecord = z.output<typeof NetworkRecord>;

/** Called after every change, before the file is written: `before` is what the store held. */
type Saved = (record: NetworkRecord | null, before: NetworkRecord | null) => void;

export class NetworkRecordStore {
  private record: NetworkRecord | null = null;
  private readonly file: JsonFile<typeof NetworkRecord>;

  constructor(
    dataDir: string,
    private readonly saved: Saved,
  ) {
    this.file = new JsonFile(join(dataDir, 'lan-network.json'), NetworkRecord);
  }

  get current(): NetworkRecord | null {
    return this.record;
  }

  async load(): Promise<void> {
    this.record = await this.file.read();
  }

  async save(record: NetworkRecord): Promise<void> {
    const before = this.record;
    this.record = record;
    this.saved(record, before);
    await this.file.write(record);
  }

  async remove(): Promise<void> {
    const before = this.record;
    this.record = null;
    this.saved(null, before);
    await this.file.remove();
  }
}

/** The signed document's entry for this device's network in its role, if it lists one. */
export function entitledEntry(document: EntitlementDocument | null, record: NetworkRecord | null): EntitledNetwork | undefined {
  return document?.networks.find((n) => n.id === record?.network.id && n.role === record?.role);
}

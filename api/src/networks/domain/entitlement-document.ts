import {
  ENTITLEMENT_LIFETIME_SECONDS,
  ENTITLEMENT_OFFLINE_GRACE_SECONDS,
  ENTITLEMENT_VERSION,
  type EntitledHost,
  type EntitledModel,
  type EntitledNetwork,
  type EntitlementDocument,
  UNLIMITED,
} from '@meshwork/contracts';

/** The plan as billing stores it: limits of UNLIMITED (999) or more mean no cap. */
export interface EntitlementPlan {
  slug: string;
  name: string;
  maxNetworks: number;
  maxClientsPerNetwork: number;
  downloadAccess: boolean;
  /** ISO 8601, or null on the free plan. */
  expiresAt: string | null;
}

/** The device's networks; each one's client cap is the plan's, so it is not an input. */
export type EntitlementNetwork = Omit<EntitledNetwork, 'max_clients'>;

export interface EntitlementInputs {
  /** The api's public URL. */
  issuer: string;
  deviceId: string;
  userId: string;
  plan: EntitlementPlan;
  models: readonly EntitledModel[];
  networks: readonly EntitlementNetwork[];
  /** The hosts of the owner's networks that registered their certificate (none: the field is left out). */
  hosts?: readonly EntitledHost[];
  now: Date;
  /** The event log position the inputs reflect: the document's revision. */
  seq: number;
}

/** A limit as the document writes it: `null` for unlimited, never the 999 that stands for it. */
export const documentLimit = (limit: number): number | null => (limit >= UNLIMITED ? null : limit);

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The entitlement document for one device, from plain inputs: no clock, no I/O. Models and
 * networks are sorted so the same entitlements give the same document; expiry is 7 days
 * from `now`, and the offline grace runs 7 days beyond that.
 */
export function buildEntitlementDocument(inputs: EntitlementInputs): EntitlementDocument {
  const iat = Math.floor(inputs.now.getTime() / 1000);
  const exp = iat + ENTITLEMENT_LIFETIME_SECONDS;
  const maxClients = documentLimit(inputs.plan.maxClientsPerNetwork);
  // Left out when empty, so the documents of accounts without a registered host are as before (same content, same seq).
  const hosts = [...(inputs.hosts ?? [])]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map(({ id, certificate_sha256 }) => ({ id, certificate_sha256 }));
  return {
    v: ENTITLEMENT_VERSION,
    iss: inputs.issuer,
    sub: inputs.deviceId,
    user_id: inputs.userId,
    plan: {
      slug: inputs.plan.slug,
      name: inputs.plan.name,
      max_networks: documentLimit(inputs.plan.maxNetworks),
      max_clients_per_network: maxClients,
      download_access: inputs.plan.downloadAccess,
      expires_at: inputs.plan.expiresAt,
    },
    models: [...inputs.models].sort(byName).map(({ name, version, manifest_sha256 }) => ({ name, version, manifest_sha256 })),
    networks: [...inputs.networks]
      .sort((a, b) => byName(a, b) || (a.id < b.id ? -1 : 1))
      .map(({ id, name, role, model, status }) => ({ id, name, role, model, max_clients: maxClients, status })),
    ...(hosts.length > 0 ? { hosts } : {}),
    iat,
    exp,
    grace_until: exp + ENTITLEMENT_OFFLINE_GRACE_SECONDS,
    seq: inputs.seq,
  };
}

/** What a host would notice changing: the document without its times and revision. */
export function documentContent(document: EntitlementDocument): string {
  return JSON.stringify({ ...document, iat: 0, exp: 0, grace_until: 0, seq: 0 });
}

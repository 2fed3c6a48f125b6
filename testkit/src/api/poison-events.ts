import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@meshwork/contracts';
import { anEvent } from './an-event';
import type { PlanTerms } from '../../../api/src/billing/domain/plan';
import type { UserEvent } from '../../../api/src/identity/domain/user.events';
import type { PersonalDataVault } from '../../../api/src/identity/infrastructure/personal-data-vault';
import { UserEventCodec } from '../../../api/src/identity/infrastructure/user-event-codec';

/**
 * Events the log can hold that a read model could not write before issue 10, appended
 * straight to the store as a log from before the api's stricter checks would hold them.
 * (U+0000 cannot be in jsonb, so only personal fields, stored encrypted, can carry it: see
 * the users test.)
 */

/**
 * A user's event as the api stores it (personal fields encrypted under the user's key),
 * whatever its text holds: `PATCH /profile/ {"first_name":"a\u0000b"}` once stored this.
 */
export async function userEvent(vault: PersonalDataVault, userId: string, event: UserEvent): Promise<NewEvent> {
  const stored = await new UserEventCodec(vault).encode(userId, event, anEvent().metadata);
  return anEvent({ type: event.type, ...stored });
}

/** Limits past 2^31 that staff could enter: the billing read model's integer columns refused them. */
export const hugeLimits = { durationDays: 2_000_000_000, maxNetworks: 3_000_000_000, maxClientsPerNetwork: 3_000_000_000 };

export function hugePlan(planId: string): { streamId: string; events: NewEvent[] } {
  const terms: PlanTerms = {
    name: 'Huge',
    description: '',
    priceCents: 100,
    yearlyPriceCents: 996,
    features: [],
    modelAccess: 'all',
    apiAccess: 'full',
    downloadAccess: true,
    apiTokenScope: 'read_write',
    apiRequestsPerMinute: 100,
    webhooks: true,
    usageHistoryDays: 90,
    tier: 9,
    popular: false,
    ...hugeLimits,
  };
  return {
    streamId: `plan-${planId}`,
    events: [
      anEvent({ type: 'PlanCreated', data: { planId, terms, isActive: true } }),
      anEvent({ type: 'PlanUpdated', data: { planId, changes: { maxClientsPerNetwork: 4_000_000_000 } } }),
    ],
  };
}

export function hugeEntitlements(userId: string, planId: string): { streamId: string; events: NewEvent[] } {
  const data = { planId, maxNetworks: 3_000_000_000, maxClientsPerNetwork: 4_000_000_000, downloadAccess: true, expiresAt: null };
  return { streamId: `subscription-${userId}`, events: [anEvent({ type: 'EntitlementsChanged', data })] };
}

/**
 * A desktop release whose version passes the api's check (digits and dots) with a part past
 * 2^31 (or `part`): the catalog's numeric sort key (an integer[]) refuses it.
 */
export function releaseWithHugeVersionPart(part = String(3_000_000_000 + Math.floor(Math.random() * 1_000_000))): {
  streamId: string;
  events: NewEvent[];
} {
  const version = `1.0.${part}`;
  const data = {
    version,
    releaseNotes: '',
    objectKey: `releases/${randomUUID()}`,
    fileName: 'Meshwork.exe',
    size: 1,
    sha256: '0'.repeat(64),
  };
  return { streamId: `release-${version}`, events: [anEvent({ type: 'ReleaseUploaded', data })] };
}

/** An event from a writer that left the actor out of its envelope: the audit trail reads actor.userId. */
export function eventWithoutActor(): { streamId: string; events: NewEvent[] } {
  const event = anEvent({ type: 'ThingHappened' });
  return {
    streamId: `legacy-${randomUUID()}`,
    events: [{ ...event, metadata: { correlationId: event.metadata.correlationId, causationId: null } as NewEvent['metadata'] }],
  };
}

import { requestContext } from '../../platform/logging/logger';
import type { IdentityContext } from './identity-context';

/** Whether the current request has no actor yet (a request that already has one keeps it). */
const withoutActor = (): boolean => {
  const context = requestContext.getStore();
  return context !== undefined && !context.userId;
};

/**
 * Makes `person` the actor of the events the current request causes from here on, when the
 * request came in without one: sign-up, sign-in, a reset link or a refresh token prove who is
 * asking before any access token does. The request's ip and user agent are already in its
 * context; without an actor the audit trail showed these events as the system's. A request
 * that already has an actor (staff making an account) keeps it, and outside a request (the
 * create-staff command) the system stays the actor.
 */
export function actAs(person: { userId: string; isStaff: boolean }): void {
  if (withoutActor()) Object.assign(requestContext.getStore()!, { userId: person.userId, isStaff: person.isStaff });
}

/** `actAs` for a person known only by id (a session's, a reset link's): their account says whether they are staff. */
export async function actAsAccount(identity: IdentityContext, userId: string): Promise<void> {
  if (!withoutActor()) return;
  const { state } = await identity.users.load(userId);
  if (state.status === 'active' || state.status === 'deactivated') actAs(state);
}

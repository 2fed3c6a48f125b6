import { EVENT_UPCASTERS } from '../../platform/event-store/upcasters';
import { apiTermsOfTier, type PlanTerms } from './plan';

/**
 * PlanCreated 1 -> 2: plans sold before API tokens had no API terms; they replay with their
 * tier's (apiTermsOfTier), so Free stays read-only and Enterprise gets webhooks. Fields an
 * event already carries win, which makes the step safe on any version-1 event.
 * Imported for its effect by the plan decider and the billing projection.
 */
EVENT_UPCASTERS.register('PlanCreated', 1, (data) => {
  const event = data as { terms: Partial<PlanTerms> & { tier: number } };
  return { ...event, terms: { ...apiTermsOfTier(event.terms.tier), ...event.terms } };
});

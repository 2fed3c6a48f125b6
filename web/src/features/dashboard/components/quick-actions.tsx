import { BookOpen, Compass, CreditCard, UserRound, Webhook } from 'lucide-react';
import { notifyFailure } from '../../../shared/toast/notify';
import { Button, buttonClasses, LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { useUpdatePreferences } from '../api/update-preferences';

/** The external documentation site when one is configured, else the site's own documentation. */
const DOCS_URL = import.meta.env.VITE_DOCS_URL || '/documentation';

/** Profile, plans, documentation, and Take Tour (which asks the server to show the onboarding again). */
export function QuickActions() {
  const updatePreferences = useUpdatePreferences();
  const takeTour = () =>
    updatePreferences.mutate(
      { show_onboarding: true },
      {
        // A fresh page load starts the onboarding from its first step (spec section 2).
        onSuccess: () => window.location.reload(),
        onError: (error) => notifyFailure('Could not start the tour', error),
      },
    );

  return (
    <RegionCard title="Quick Actions">
      <div className="grid gap-3">
        <LinkButton to="/profile" variant="secondary" className="justify-start">
          <UserRound className="size-4" aria-hidden /> Account Settings
        </LinkButton>
        <LinkButton to="/pricing" variant="secondary" className="justify-start">
          <CreditCard className="size-4" aria-hidden /> View Plans
        </LinkButton>
        <LinkButton to="/settings/webhooks" variant="secondary" className="justify-start">
          <Webhook className="size-4" aria-hidden /> Webhooks
        </LinkButton>
        <a href={DOCS_URL} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: 'secondary' }, 'justify-start')}>
          <BookOpen className="size-4" aria-hidden /> Documentation
          <span className="sr-only">(opens in a new tab)</span>
        </a>
        <Button variant="secondary" className="justify-start" onClick={takeTour} disabled={updatePreferences.isPending}>
          <Compass className="size-4" aria-hidden /> Take Tour
        </Button>
      </div>
    </RegionCard>
  );
}

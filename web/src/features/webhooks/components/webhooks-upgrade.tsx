import { Webhook } from 'lucide-react';
import { CheckList } from '../../../shared/ui/check-list';
import { LinkButton } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';

const WHAT_YOU_GET = [
  'Your systems are told at once when a device signs in or is revoked, a network changes, or a payment goes through.',
  'Every request is signed with your endpoint’s secret, so your receiver knows it came from Meshwork.',
  'Failed deliveries are retried for at least 24 hours, and you can see and resend each one here.',
] as const;

/** What a plan without webhooks shows in place of the endpoints: what they are, and the way to them. */
export function WebhooksUpgrade({ reason }: { reason: string }) {
  return (
    <Card role="region" aria-labelledby="webhooks-upgrade-title" className="mx-auto max-w-2xl p-8">
      <Webhook className="size-10 text-brand-600 dark:text-brand-400" aria-hidden />
      <h2 id="webhooks-upgrade-title" className="mt-4 text-xl font-semibold text-slate-900 dark:text-white">
        Webhooks come with the Enterprise plan
      </h2>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Webhooks send an HTTPS request to a URL you choose whenever something happens in your account, so your ticketing, billing or
        monitoring system can act on it without polling.
      </p>
      <CheckList items={WHAT_YOU_GET} className="mt-6" />
      <p className="mt-6 text-sm text-slate-500 dark:text-slate-400">{reason}</p>
      <LinkButton to="/pricing" className="mt-6">
        See the Enterprise Plan
      </LinkButton>
    </Card>
  );
}

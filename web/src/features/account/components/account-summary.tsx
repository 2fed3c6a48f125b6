import type { User } from '@meshwork/contracts';
import { CreditCard, KeyRound, Webhook } from 'lucide-react';
import { formatClientLimit, formatDay, formatPlanName } from '../../../shared/format/account-format';
import { LinkButton } from '../../../shared/ui/button';
import { SettingsSection } from './section';

/** Plan, client limit and membership date, with the way to billing. */
export function AccountSummary({ user }: { user: User }) {
  const rows = [
    { label: 'Plan', value: formatPlanName(user.subscription_plan) },
    { label: 'Max clients', value: formatClientLimit(user.max_clients) },
    { label: 'Member since', value: formatDay(user.created_at) },
  ];
  return (
    <SettingsSection title="Account Summary">
      <dl className="divide-y divide-slate-100 dark:divide-slate-800">
        {rows.map((row) => (
          <div key={row.label} className="flex items-center justify-between py-3 first:pt-0">
            <dt className="text-sm text-slate-600 dark:text-slate-400">{row.label}</dt>
            <dd className="text-sm font-medium text-slate-900 dark:text-white">{row.value}</dd>
          </div>
        ))}
      </dl>
      <LinkButton to="/billing" variant="secondary" fullWidth className="mt-6">
        <CreditCard className="size-4" aria-hidden />
        Manage Billing
      </LinkButton>
      <LinkButton to="/settings/api" variant="secondary" fullWidth className="mt-3">
        <KeyRound className="size-4" aria-hidden />
        API tokens
      </LinkButton>
      <LinkButton to="/settings/webhooks" variant="secondary" fullWidth className="mt-3">
        <Webhook className="size-4" aria-hidden />
        Webhooks
      </LinkButton>
    </SettingsSection>
  );
}

import { FormControlLabel, Switch } from '@mui/material';
import { useNotify, useTranslate, useUpdate } from 'react-admin';
import { useCanWrite } from '../auth/use-can-write';
import type { AdminPlan } from './admin-plan';

/** Active or Inactive, switched from the card by staff (auditors see it, switched off): an inactive plan is no longer offered to customers. */
export function PlanActiveSwitch({ plan }: { plan: AdminPlan }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate<AdminPlan>();
  const canWrite = useCanWrite();

  const toggle = () =>
    update(
      'plans',
      { id: plan.id, data: { is_active: !plan.is_active }, previousData: plan },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => notify('resources.plans.notifications.updated', { type: 'success' }),
        onError: () => notify('resources.plans.notifications.update_failed', { type: 'error' }),
      },
    );

  return (
    <FormControlLabel
      control={<Switch checked={plan.is_active} onChange={toggle} disabled={isPending || !canWrite} color="success" />}
      label={translate(`resources.plans.status.${plan.is_active ? 'active' : 'inactive'}`)}
      labelPlacement="start"
    />
  );
}

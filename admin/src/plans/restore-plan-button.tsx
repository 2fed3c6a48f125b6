import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import { useMutation } from '@tanstack/react-query';
import { Button, useDataProvider, useNotify, useRefresh } from 'react-admin';
import type { ConsoleDataProvider } from '../app/data-provider';
import type { AdminPlan } from './admin-plan';

/**
 * Restore, on an archived plan's card: the plan goes back on sale with the terms it had,
 * and leaves the archived list for the plans on sale or held back.
 */
export function RestorePlanButton({ plan }: { plan: AdminPlan }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const restore = useMutation({
    mutationFn: () => dataProvider.restorePlan(plan.id),
    onSuccess: () => {
      notify('resources.plans.notifications.restored', { type: 'success', messageArgs: { name: plan.name } });
      refresh();
    },
    onError: () => notify('resources.plans.notifications.restore_failed', { type: 'error' }),
  });
  return (
    <Button label="resources.plans.actions.restore" onClick={() => restore.mutate()} disabled={restore.isPending}>
      <RestoreIcon />
    </Button>
  );
}

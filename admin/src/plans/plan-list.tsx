import { Box } from '@mui/material';
import { BooleanInput, Button, CreateButton, List, SearchInput, TopToolbar, useListContext } from 'react-admin';
import { WriteOnly } from '../auth/use-can-write';
import { BackIcon } from '../layout/back-icon';
import { LoadFailed, useLoadFailureToast } from '../layout/load-failure';
import type { AdminPlan } from './admin-plan';
import { PlanCard } from './plan-card';

// `q` matches the plan's name or slug on the server; `archived` lists the deleted plans instead, to restore them.
const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <BooleanInput key="archived" source="archived" label="resources.plans.filters.archived" alwaysOn />,
];

function PlanListActions() {
  return (
    <TopToolbar sx={{ justifyContent: 'space-between', width: '100%' }}>
      <Button to="/" label="resources.plans.actions.back_to_dashboard">
        <BackIcon />
      </Button>
      <WriteOnly>
        <CreateButton label="resources.plans.actions.create" />
      </WriteOnly>
    </TopToolbar>
  );
}

function PlanGrid() {
  const { data } = useListContext<AdminPlan>();
  return (
    <Box sx={{ display: 'grid', gap: 2, p: 2, alignItems: 'start', gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))' }}>
      {data?.map((plan) => (
        <PlanCard key={plan.id} plan={plan} />
      ))}
    </Box>
  );
}

/** /admin/plans: every plan on sale or held back (or, filtered, every archived one), as cards in tier order (cheapest first); a handful, so no pages. */
export function PlanList() {
  const onLoadFailure = useLoadFailureToast('resources.plans.notifications.load_failed');
  return (
    <List
      filters={filters}
      actions={<PlanListActions />}
      sort={{ field: 'tier', order: 'ASC' }}
      perPage={100}
      pagination={false}
      error={<LoadFailed message="resources.plans.notifications.load_failed" />}
      queryOptions={{ onError: onLoadFailure }}
    >
      <PlanGrid />
    </List>
  );
}

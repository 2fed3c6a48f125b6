import { Box } from '@mui/material';
import { Button, Show, TabbedShowLayout, TopToolbar, useRecordContext } from 'react-admin';
import { ResourceHistory } from '../audit/resource-history';
import { BackIcon } from '../layout/back-icon';
import type { AdminPlan } from './admin-plan';
import { PlanCard } from './plan-card';

function PlanShowActions() {
  return (
    <TopToolbar sx={{ justifyContent: 'flex-start', width: '100%' }}>
      <Button to="/plans" label="resources.plans.actions.back_to_list">
        <BackIcon />
      </Button>
    </TopToolbar>
  );
}

/** The plan's card, as the plans screen shows it (and edits it, for staff). */
function PlanDetails() {
  const plan = useRecordContext<AdminPlan>();
  return plan ? (
    <Box sx={{ maxWidth: 480 }}>
      <PlanCard plan={plan} />
    </Box>
  ) : null;
}

/** The History tab: the plan's stream (plan-<slug>) in the audit trail. */
function PlanHistory() {
  const plan = useRecordContext<AdminPlan>();
  return plan ? <ResourceHistory resourceType="plan" resourceId={String(plan.id)} /> : null;
}

/** /admin/plans/{id}/show: one plan, its card and its History (issue 15). */
export function PlanShow() {
  return (
    <Show actions={<PlanShowActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="resources.plans.tabs.details">
          <PlanDetails />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.plans.tabs.history" path="history">
          <PlanHistory />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}

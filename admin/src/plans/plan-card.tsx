import { Card } from '@mui/material';
import { useState } from 'react';
import { RecordContextProvider } from 'react-admin';
import type { AdminPlan } from './admin-plan';
import { PlanEditForm } from './plan-edit-form';
import { PlanSummary } from './plan-summary';

/**
 * One plan as a card that toggles between view and edit (spec section 2). The record context
 * lets the delete button know its plan. The card is an article named after the plan, so it
 * can be found as one.
 */
export function PlanCard({ plan }: { plan: AdminPlan }) {
  const [editing, setEditing] = useState(false);
  return (
    <RecordContextProvider value={plan}>
      <Card component="article" aria-label={plan.name} variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
        {editing ? (
          <PlanEditForm plan={plan} onDone={() => setEditing(false)} />
        ) : (
          <PlanSummary plan={plan} onEdit={() => setEditing(true)} />
        )}
      </Card>
    </RecordContextProvider>
  );
}

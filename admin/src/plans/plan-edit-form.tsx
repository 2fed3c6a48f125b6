import CloseIcon from '@mui/icons-material/Close';
import { CardActions, CardContent } from '@mui/material';
import { Button, Form, HttpError, SaveButton, useNotify, useUpdate } from 'react-admin';
import { type AdminPlan, formValuesOf, planUpdateOf, type PlanFormValues } from './admin-plan';
import { PlanInputs } from './plan-inputs';

/**
 * A card's edit mode: the plan form in place of the summary. Saving waits for the server
 * (pessimistic), so a refused change stays in the form with the server's reasons under the
 * fields instead of flashing back.
 */
export function PlanEditForm({ plan, onDone }: { plan: AdminPlan; onDone: () => void }) {
  const notify = useNotify();
  // Untyped: the body is a PlanUpdate (money as numbers), not a slice of the AdminPlan it answers with.
  const [update] = useUpdate('plans', undefined, { mutationMode: 'pessimistic', returnPromise: true });

  const save = async (values: Partial<PlanFormValues>) => {
    try {
      await update('plans', { id: plan.id, data: planUpdateOf(values as PlanFormValues), previousData: plan });
      notify('resources.plans.notifications.updated', { type: 'success' });
      onDone();
    } catch (error) {
      notify('resources.plans.notifications.update_failed', { type: 'error' });
      // react-hook-form shows these under the fields (already one message each, see app/field-errors.ts).
      if (error instanceof HttpError && error.body?.errors) return error.body.errors as Record<string, string>;
    }
  };

  return (
    <Form record={formValuesOf(plan)} onSubmit={save} disableInvalidFormNotification>
      <CardContent>
        <PlanInputs />
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end' }}>
        <Button label="ra.action.cancel" onClick={onDone}>
          <CloseIcon />
        </Button>
        <SaveButton variant="contained" />
      </CardActions>
    </Form>
  );
}

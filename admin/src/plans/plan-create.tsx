import { Create, SimpleForm, useNotify } from 'react-admin';
import { ReadOnlyNotice, WriteOnly } from '../auth/use-can-write';
import { newPlanDefaults, planInputOf, type PlanFormValues } from './admin-plan';
import { PlanInputs } from './plan-inputs';

/**
 * /admin/plans/create, the new-plan form (spec sections 5 and 9). Success toasts
 * `resources.plans.notifications.created` and returns to the cards; field errors from the
 * server appear under their fields (see app/field-errors.ts).
 */
export function PlanCreate() {
  const notify = useNotify();
  return (
    <WriteOnly fallback={<ReadOnlyNotice />}>
      <Create
        redirect="list"
        transform={(values: PlanFormValues) => planInputOf(values)}
        mutationOptions={{ onError: () => notify('resources.plans.notifications.create_failed', { type: 'error' }) }}
      >
        {/* The failure toast above says what happened; react-admin's "form is not valid" toast would only repeat it. */}
        <SimpleForm defaultValues={newPlanDefaults} disableInvalidFormNotification>
          <PlanInputs withSlug />
        </SimpleForm>
      </Create>
    </WriteOnly>
  );
}

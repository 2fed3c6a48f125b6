import { DeleteWithConfirmButton, useNotify } from 'react-admin';

/**
 * Delete, after the spec's confirmation (section 5): 'Are you sure you want to delete the
 * "{plan}" plan? This action cannot be undone.' (`resources.plans.message.delete_content`).
 * The api archives the plan: it leaves the list and the shop, its subscribers keep it until
 * their period ends.
 */
export function DeletePlanButton() {
  const notify = useNotify();
  return (
    <DeleteWithConfirmButton
      mutationMode="pessimistic"
      redirect={false}
      mutationOptions={{ onError: () => notify('resources.plans.notifications.delete_failed', { type: 'error' }) }}
    />
  );
}

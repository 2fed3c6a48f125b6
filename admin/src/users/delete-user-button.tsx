import { DeleteWithConfirmButton, useNotify } from 'react-admin';

/**
 * Delete, after a confirmation (spec section 5) titled with the username. The title and text
 * are react-admin's per-resource keys `resources.users.message.delete_*`.
 */
export function DeleteUserButton() {
  const notify = useNotify();
  return (
    <DeleteWithConfirmButton
      mutationMode="pessimistic"
      mutationOptions={{ onError: () => notify('resources.users.notifications.delete_failed', { type: 'error' }) }}
    />
  );
}

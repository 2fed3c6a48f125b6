import { useDeleteMany, useListContext, useNotify, useUpdateMany } from 'react-admin';
import type { AdminUser } from '../admin-user';

/**
 * Bulk activate, deactivate and delete over the list's selection, shared by the bulk toolbar
 * (shown only with a selection) and the list's "Bulk actions" menu (always shown). Acting
 * with nothing selected shows the spec's 'please select a user' error (section 5).
 */
export function useUserBulkActions() {
  const { selectedIds, onUnselectItems } = useListContext<AdminUser>();
  const notify = useNotify();
  const [updateMany, { isPending: isUpdating }] = useUpdateMany<AdminUser>();
  const [deleteMany, { isPending: isDeleting }] = useDeleteMany<AdminUser>();

  /** False, with the error shown, when no user is selected. */
  function requireSelection(): boolean {
    if (selectedIds.length > 0) return true;
    notify('resources.users.notifications.select_user', { type: 'error' });
    return false;
  }

  function setActive(active: boolean) {
    if (!requireSelection()) return;
    const count = selectedIds.length;
    void updateMany(
      'users',
      { ids: selectedIds, data: { is_active: active } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(`resources.users.notifications.${active ? 'bulk_activated' : 'bulk_deactivated'}`, {
            type: 'success',
            messageArgs: { smart_count: count },
          });
          onUnselectItems();
        },
        onError: () => notify('resources.users.notifications.bulk_update_failed', { type: 'error' }),
      },
    );
  }

  /** Deletes the selection; the caller has asked for confirmation first. */
  function remove(onSettled?: () => void) {
    if (!requireSelection()) return;
    const count = selectedIds.length;
    void deleteMany(
      'users',
      { ids: selectedIds },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('resources.users.notifications.bulk_deleted', { type: 'success', messageArgs: { smart_count: count } });
          onUnselectItems();
        },
        onError: () => notify('resources.users.notifications.bulk_delete_failed', { type: 'error' }),
        onSettled,
      },
    );
  }

  return { selectedCount: selectedIds.length, requireSelection, setActive, remove, isPending: isUpdating || isDeleting };
}

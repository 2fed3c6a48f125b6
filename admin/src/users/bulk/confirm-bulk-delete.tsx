import { Confirm } from 'react-admin';

interface ConfirmBulkDeleteProps {
  isOpen: boolean;
  count: number;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Delete 3 users?": bulk delete always asks first (spec section 5). */
export function ConfirmBulkDelete({ isOpen, count, loading, onConfirm, onClose }: ConfirmBulkDeleteProps) {
  return (
    <Confirm
      isOpen={isOpen}
      loading={loading}
      title="resources.users.message.bulk_delete_title"
      content="resources.users.message.bulk_delete_content"
      titleTranslateOptions={{ smart_count: count }}
      contentTranslateOptions={{ smart_count: count }}
      confirmColor="warning"
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}

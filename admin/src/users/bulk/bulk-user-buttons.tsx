import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteIcon from '@mui/icons-material/Delete';
import { useState } from 'react';
import { Button } from 'react-admin';
import { ConfirmBulkDelete } from './confirm-bulk-delete';
import { useUserBulkActions } from './use-user-bulk-actions';

/** The buttons of react-admin's bulk toolbar, which appears once users are selected. */
export function BulkUserButtons() {
  const bulk = useUserBulkActions();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button label="resources.users.actions.bulk_activate" color="success" onClick={() => bulk.setActive(true)} disabled={bulk.isPending}>
        <CheckCircleIcon />
      </Button>
      <Button
        label="resources.users.actions.bulk_deactivate"
        color="warning"
        onClick={() => bulk.setActive(false)}
        disabled={bulk.isPending}
      >
        <BlockIcon />
      </Button>
      <Button
        label="resources.users.actions.bulk_delete"
        color="error"
        onClick={() => bulk.requireSelection() && setConfirming(true)}
        disabled={bulk.isPending}
      >
        <DeleteIcon />
      </Button>
      <ConfirmBulkDelete
        isOpen={confirming}
        count={bulk.selectedCount}
        loading={bulk.isPending}
        onConfirm={() => bulk.remove(() => setConfirming(false))}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

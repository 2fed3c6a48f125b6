import UndoIcon from '@mui/icons-material/Undo';
import { useState } from 'react';
import { Button, useRecordContext } from 'react-admin';
import { useCanWrite } from '../auth/use-can-write';
import { type AdminPayment, isRefundable } from './admin-payment';
import { RefundDialog } from './refund-dialog';

/** Refund, for staff, on completed payments with something left to refund; opens the refund dialog. */
export function RefundButton() {
  const payment = useRecordContext<AdminPayment>();
  const [open, setOpen] = useState(false);
  const canWrite = useCanWrite();
  if (!payment || !isRefundable(payment) || !canWrite) return null;
  return (
    <>
      <Button label="resources.payments.actions.refund" onClick={() => setOpen(true)} color="warning">
        <UndoIcon />
      </Button>
      {/* Mounted only while open, so each opening starts from an empty form. */}
      {open ? <RefundDialog payment={payment} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

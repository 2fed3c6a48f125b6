import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import type { RefundRequest } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../app/data-provider';
import { formatMoney, useIntlLocale } from '../i18n/intl-locale';
import { type AdminPayment, refundableAmount } from './admin-payment';

interface RefundDialogProps {
  payment: AdminPayment;
  onClose: () => void;
}

/**
 * Refund all or part of a completed payment (spec section 5): an amount of at most what is
 * left, in cents, and a reason; Process Refund stays disabled until both are filled. The
 * browser checks the amount's bounds on submit; the server checks them again and its
 * refusal is shown here, with the dialog left open.
 */
export function RefundDialog({ payment, onClose }: RefundDialogProps) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const refundable = refundableAmount(payment);
  const money = (value: number) => formatMoney(value, payment.currency, intlLocale);

  const refund = useMutation({
    mutationFn: (request: RefundRequest) => dataProvider.refundPayment(payment.id, request),
    onSuccess: () => {
      notify('resources.payments.notifications.refunded', { type: 'success' });
      refresh();
      onClose();
    },
    onError: () => notify('resources.payments.notifications.refund_failed', { type: 'error' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    refund.mutate({ amount: Number(amount), reason: reason.trim() });
  };
  const filled = amount.trim() !== '' && reason.trim() !== '';

  return (
    <Dialog open onClose={refund.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="refund-dialog-title">
      <form onSubmit={submit}>
        <DialogTitle id="refund-dialog-title">{translate('resources.payments.refund.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText gutterBottom>
            {translate('resources.payments.refund.summary', {
              user: payment.userEmail,
              plan: payment.planName,
              amount: money(payment.amount),
              refunded: money(payment.refundAmount),
            })}
          </DialogContentText>
          {refund.error ? (
            <Alert severity="error" sx={{ my: 1 }}>
              {refund.error.message}
            </Alert>
          ) : null}
          <TextField
            label={translate('resources.payments.refund.amount')}
            type="number"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            helperText={translate('resources.payments.refund.amount_help', { max: money(refundable) })}
            slotProps={{ htmlInput: { min: 0.01, max: refundable, step: 0.01 } }}
            required
            fullWidth
            margin="normal"
            autoFocus
          />
          <TextField
            label={translate('resources.payments.refund.reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            required
            fullWidth
            multiline
            minRows={3}
            margin="normal"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={refund.isPending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={!filled || refund.isPending}>
            {translate('resources.payments.refund.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

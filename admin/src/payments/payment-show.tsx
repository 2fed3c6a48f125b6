import { Button, Show, TabbedShowLayout, TextField, TopToolbar, useRecordContext } from 'react-admin';
import { ResourceHistory } from '../audit/resource-history';
import { BackIcon } from '../layout/back-icon';
import type { AdminPayment } from './admin-payment';
import { AmountField, PayerField, PaymentDateField, PaymentMethodField, PaymentStatusField } from './payment-fields';
import { PaymentInvoices } from './payment-invoices';
import { RefundButton } from './refund-button';

function PaymentShowActions() {
  return (
    <TopToolbar sx={{ justifyContent: 'space-between', width: '100%' }}>
      <Button to="/payments" label="resources.payments.actions.back_to_list">
        <BackIcon />
      </Button>
      <RefundButton />
    </TopToolbar>
  );
}

/** The History tab: the payment's stream (payment-<id>) in the audit trail. */
function PaymentHistory() {
  const payment = useRecordContext<AdminPayment>();
  return payment ? <ResourceHistory resourceType="payment" resourceId={String(payment.id)} /> : null;
}

/** /admin/payments/{id}/show: one payment as the list shows it, with its refund reason, and its History (issue 15). */
export function PaymentShow() {
  return (
    <Show actions={<PaymentShowActions />}>
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="resources.payments.tabs.details">
          <PayerField label="resources.payments.fields.user" />
          <TextField source="planName" />
          <AmountField source="amount" />
          <PaymentStatusField source="status" />
          <PaymentMethodField source="paymentMethod" />
          <TextField source="transactionId" sx={{ fontFamily: 'monospace' }} />
          <PaymentDateField source="createdDate" />
          <PaymentDateField source="processedDate" />
          <AmountField source="refundAmount" />
          <TextField source="refundReason" emptyText="—" />
          <PaymentInvoices />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.payments.tabs.history" path="history">
          <PaymentHistory />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}

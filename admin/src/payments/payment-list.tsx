import { Button, Datagrid, List, SearchInput, SelectInput, ShowButton, TextField, TopToolbar, WrapperField } from 'react-admin';
import { BackIcon } from '../layout/back-icon';
import { LoadFailed, useLoadFailureToast } from '../layout/load-failure';
import { PERIODS } from './admin-payment';
import { ExportPaymentsButton } from './export-payments-button';
import { AmountField, PayerField, PaymentDateField, PaymentMethodField, PaymentStatusField } from './payment-fields';
import { RefundButton } from './refund-button';

// 'all' is the select's empty choice, sent as 'all' rather than dropped from the filter.
const periodChoices = PERIODS.filter((period) => period !== 'all').map((period) => ({
  id: period,
  name: `resources.payments.periods.${period}`,
}));

// `q` matches email, name, transaction ID or plan name on the server (spec section 5); `period` is the date filter.
const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput
    key="period"
    source="period"
    label="resources.payments.filters.period"
    choices={periodChoices}
    emptyText="resources.payments.periods.all"
    emptyValue="all"
    alwaysOn
    sx={{ minWidth: 180 }}
  />,
];

function PaymentListActions() {
  return (
    <TopToolbar sx={{ justifyContent: 'space-between', width: '100%' }}>
      <Button to="/" label="resources.payments.actions.back_to_dashboard">
        <BackIcon />
      </Button>
      <ExportPaymentsButton />
    </TopToolbar>
  );
}

/** /admin/payments: searchable, filtered by date, newest first, each with its details and history, refunds (for staff) and a CSV export. */
export function PaymentList() {
  const onLoadFailure = useLoadFailureToast('resources.payments.notifications.load_failed');
  return (
    <List
      filters={filters}
      filterDefaultValues={{ period: 'all' }}
      actions={<PaymentListActions />}
      sort={{ field: 'createdDate', order: 'DESC' }}
      perPage={25}
      error={<LoadFailed message="resources.payments.notifications.load_failed" />}
      queryOptions={{ onError: onLoadFailure }}
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <PayerField label="resources.payments.fields.user" sortBy="userEmail" />
        <TextField source="planName" />
        <AmountField source="amount" />
        <PaymentStatusField source="status" />
        <PaymentMethodField source="paymentMethod" sortable={false} />
        <TextField source="transactionId" sortable={false} sx={{ fontFamily: 'monospace' }} />
        <PaymentDateField source="createdDate" />
        <PaymentDateField source="processedDate" sortable={false} />
        <AmountField source="refundAmount" sortable={false} />
        <WrapperField label="resources.payments.fields.actions" textAlign="right">
          <ShowButton label="resources.payments.actions.details" />
          <RefundButton />
        </WrapperField>
      </Datagrid>
    </List>
  );
}

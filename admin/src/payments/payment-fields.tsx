import { Box, Chip, type ChipProps, Typography } from '@mui/material';
import { DateField, FunctionField, useTranslate } from 'react-admin';
import { formatMoney, useIntlLocale } from '../i18n/intl-locale';
import type { AdminPayment } from './admin-payment';

interface FieldProps {
  source?: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}

/** The payer: name above, email below. */
export function PayerField(props: FieldProps) {
  return (
    <FunctionField<AdminPayment>
      {...props}
      render={(payment) => (
        <Box>
          <Typography variant="body2">{payment.userName || payment.userEmail}</Typography>
          {payment.userName ? (
            <Typography variant="caption" color="text.secondary">
              {payment.userEmail}
            </Typography>
          ) : null}
        </Box>
      )}
    />
  );
}

/** "$29.00": the amount in its currency. */
export function AmountField(props: FieldProps & { source: 'amount' | 'refundAmount' }) {
  const intlLocale = useIntlLocale();
  const { source } = props;
  return (
    <FunctionField<AdminPayment>
      {...props}
      // Nothing refunded shows as a dash, not as "$0.00", so refunds stand out in the column.
      render={(payment) =>
        source === 'refundAmount' && !payment.refundAmount ? '—' : formatMoney(payment[source], payment.currency, intlLocale)
      }
    />
  );
}

const statusColours: Record<AdminPayment['status'], ChipProps['color']> = {
  completed: 'success',
  pending: 'warning',
  failed: 'error',
  refunded: 'default',
};

/** Completed, Pending, Failed or Refunded, as a coloured chip (spec section 4). */
export function PaymentStatusField(props: FieldProps) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminPayment>
      {...props}
      render={(payment) => (
        <Chip
          size="small"
          color={statusColours[payment.status] ?? 'default'}
          label={translate(`resources.payments.status.${payment.status}`, { _: payment.status })}
        />
      )}
    />
  );
}

/** Stripe or Simulated. */
export function PaymentMethodField(props: FieldProps) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminPayment>
      {...props}
      render={(payment) => translate(`resources.payments.methods.${payment.paymentMethod}`, { _: payment.paymentMethod })}
    />
  );
}

/** Date and time, short, in the console's language (spec section 9: en-US short with hour and minute). */
export function PaymentDateField(props: FieldProps & { source: 'createdDate' | 'processedDate' }) {
  const intlLocale = useIntlLocale();
  return <DateField {...props} showTime locales={intlLocale} options={{ dateStyle: 'short', timeStyle: 'short' }} emptyText="—" />;
}

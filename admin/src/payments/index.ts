import PaymentsIcon from '@mui/icons-material/Payments';
import { PaymentList } from './payment-list';

/** The payments resource (spec section 2, "Payments"): a list only; the one change staff make is a refund, from the list. */
export default {
  list: PaymentList,
  icon: PaymentsIcon,
  recordRepresentation: 'transactionId',
};

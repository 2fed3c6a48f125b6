import PaymentsIcon from '@mui/icons-material/Payments';
import { PaymentList } from './payment-list';
import { PaymentShow } from './payment-show';

/**
 * The payments resource (spec section 2, "Payments"): the list, where staff refund, and a
 * payment's page with its details and History (issue 15).
 */
export default {
  list: PaymentList,
  show: PaymentShow,
  icon: PaymentsIcon,
  recordRepresentation: 'transactionId',
};

import PaymentsIcon from '@mui/icons-material/Payments';
import { lazyScreen } from '../app/lazy-screen';

/**
 * The payments resource (spec section 2, "Payments"): the list, where staff refund, and a
 * payment's page with its details and History (issue 15).
 */
export default {
  list: lazyScreen(() => import('./payment-list'), 'PaymentList'),
  show: lazyScreen(() => import('./payment-show'), 'PaymentShow'),
  icon: PaymentsIcon,
  recordRepresentation: 'transactionId',
};

import AnalyticsIcon from '@mui/icons-material/Analytics';
import { lazyScreen } from '../app/lazy-screen';

/**
 * The analytics screen (spec section 2, "Analytics"): a list page only, read by staff and
 * auditors alike. Its report comes from the api's own endpoint (analytics-api.ts), not CRUD.
 */
export default {
  list: lazyScreen(() => import('./analytics-screen'), 'AnalyticsScreen'),
  icon: AnalyticsIcon,
};

import AnalyticsIcon from '@mui/icons-material/Analytics';
import { AnalyticsScreen } from './analytics-screen';

/**
 * The analytics screen (spec section 2, "Analytics"): a list page only, read by staff and
 * auditors alike. Its report comes from the api's own endpoint (analytics-api.ts), not CRUD.
 */
export default {
  list: AnalyticsScreen,
  icon: AnalyticsIcon,
};

import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { lazyScreen } from '../app/lazy-screen';

/**
 * The audit trail (issue 15): a list only, read by staff and auditors alike. Its pages come by
 * cursor from the api's own endpoint (audit-api.ts), not by react-admin's CRUD.
 */
export default {
  list: lazyScreen(() => import('./audit-list'), 'AuditList'),
  icon: ManageSearchIcon,
};

import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { AuditList } from './audit-list';

/**
 * The audit trail (issue 15): a list only, read by staff and auditors alike. Its pages come by
 * cursor from the api's own endpoint (audit-api.ts), not by react-admin's CRUD.
 */
export default {
  list: AuditList,
  icon: ManageSearchIcon,
};

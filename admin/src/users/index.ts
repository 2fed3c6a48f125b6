import PeopleIcon from '@mui/icons-material/People';
import { lazyScreen } from '../app/lazy-screen';

/**
 * The users resource (spec section 2, "Users"; issue 15): the list with activate/deactivate,
 * delete and bulk actions; a user's page with their devices, networks and history; staff
 * create users (customers, staff or auditors) and edit their names and role.
 */
export default {
  list: lazyScreen(() => import('./user-list'), 'UserList'),
  show: lazyScreen(() => import('./user-show'), 'UserShow'),
  create: lazyScreen(() => import('./user-create'), 'UserCreate'),
  edit: lazyScreen(() => import('./user-edit'), 'UserEdit'),
  icon: PeopleIcon,
  recordRepresentation: 'username',
};

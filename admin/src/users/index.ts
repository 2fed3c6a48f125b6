import PeopleIcon from '@mui/icons-material/People';
import { UserCreate } from './user-create';
import { UserEdit } from './user-edit';
import { UserList } from './user-list';
import { UserShow } from './user-show';

/**
 * The users resource (spec section 2, "Users"; issue 15): the list with activate/deactivate,
 * delete and bulk actions; a user's page with their devices, networks and history; staff
 * create users (customers, staff or auditors) and edit their names and role.
 */
export default {
  list: UserList,
  show: UserShow,
  create: UserCreate,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: 'username',
};

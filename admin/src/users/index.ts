import PeopleIcon from '@mui/icons-material/People';
import { UserList } from './user-list';
import { UserShow } from './user-show';

/**
 * The users resource (spec section 2, "Users"). No edit or create: the api changes a user
 * only through activate/deactivate and delete, which the list and show pages offer.
 */
export default {
  list: UserList,
  show: UserShow,
  icon: PeopleIcon,
  recordRepresentation: 'username',
};

import SmartToyIcon from '@mui/icons-material/SmartToy';
import { lazyScreen } from '../app/lazy-screen';

/**
 * The AI models screen (spec section 2, "Admin AI Model Management"). Its calls are the
 * catalogue's own (models/catalog-api.ts), not CRUD on an admin-panel resource, so it has a
 * list page only; details, access, upload and delete happen in dialogs on it.
 */
export default {
  list: lazyScreen(() => import('./model-list'), 'ModelList'),
  icon: SmartToyIcon,
};

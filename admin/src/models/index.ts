import SmartToyIcon from '@mui/icons-material/SmartToy';
import { ModelList } from './model-list';

/**
 * The AI models screen (spec section 2, "Admin AI Model Management"). Its calls are the
 * catalogue's own (models/catalog-api.ts), not CRUD on an admin-panel resource, so it has a
 * list page only; details, access, upload and delete happen in dialogs on it.
 */
export default {
  list: ModelList,
  icon: SmartToyIcon,
};

import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { PlanCreate } from './plan-create';
import { PlanList } from './plan-list';

/** The plans resource (spec section 2, "Plans"). No edit or show page: each card edits in place. */
export default {
  list: PlanList,
  create: PlanCreate,
  icon: WorkspacePremiumIcon,
  recordRepresentation: 'name',
};

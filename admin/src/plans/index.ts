import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { PlanCreate } from './plan-create';
import { PlanList } from './plan-list';
import { PlanShow } from './plan-show';

/** The plans resource (spec section 2, "Plans"). No edit page: each card edits in place; the show page adds the plan's History. */
export default {
  list: PlanList,
  create: PlanCreate,
  show: PlanShow,
  icon: WorkspacePremiumIcon,
  recordRepresentation: 'name',
};

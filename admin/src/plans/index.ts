import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { lazyScreen } from '../app/lazy-screen';

/** The plans resource (spec section 2, "Plans"). No edit page: each card edits in place; the show page adds the plan's History. */
export default {
  list: lazyScreen(() => import('./plan-list'), 'PlanList'),
  create: lazyScreen(() => import('./plan-create'), 'PlanCreate'),
  show: lazyScreen(() => import('./plan-show'), 'PlanShow'),
  icon: WorkspacePremiumIcon,
  recordRepresentation: 'name',
};

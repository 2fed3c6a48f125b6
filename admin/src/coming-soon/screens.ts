import AnalyticsIcon from '@mui/icons-material/Analytics';
import type { SvgIconComponent } from '@mui/icons-material';

/**
 * The staff screens of spec section 2 that are not built yet. Each becomes a resource folder
 * of its own; until then its route shows a labelled 'coming soon' page.
 */
export const screens: { name: 'analytics'; icon: SvgIconComponent }[] = [{ name: 'analytics', icon: AnalyticsIcon }];

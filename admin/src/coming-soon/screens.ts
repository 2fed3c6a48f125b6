import AnalyticsIcon from '@mui/icons-material/Analytics';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import type { SvgIconComponent } from '@mui/icons-material';

/**
 * The staff screens of spec section 2 that are not built yet. Each becomes a resource folder
 * of its own; until then its route shows a labelled 'coming soon' page.
 */
export const screens: { name: 'analytics' | 'models'; icon: SvgIconComponent }[] = [
  { name: 'analytics', icon: AnalyticsIcon },
  { name: 'models', icon: SmartToyIcon },
];

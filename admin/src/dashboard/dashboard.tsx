import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { Button, Title, useRefresh, useTranslate } from 'react-admin';
import analytics from '../analytics';
import audit from '../audit';
import models from '../models';
import payments from '../payments';
import plans from '../plans';
import users from '../users';
import { DashboardStats } from './dashboard-stats';
import { QuickActionTile } from './quick-action-tile';
import { SystemCard } from './system-card';

// In the order of spec section 2, then the audit trail (issue 15).
const tiles = [
  { name: 'users', icon: users.icon },
  { name: 'plans', icon: plans.icon },
  { name: 'payments', icon: payments.icon },
  { name: 'analytics', icon: analytics.icon },
  { name: 'models', icon: models.icon },
  { name: 'audit', icon: audit.icon },
];

/**
 * The console's home (/admin): a refresh button, the figures of GET /admin-panel/dashboard/,
 * the System card (each projection's state) and quick-action tiles to every staff screen.
 */
export function Dashboard() {
  const translate = useTranslate();
  const refresh = useRefresh();
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('meshwork.dashboard.title')} />
      <Card>
        <CardContent>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 2 }}>
            <Box>
              <Typography variant="h5" component="h1" gutterBottom>
                {translate('meshwork.dashboard.heading')}
              </Typography>
              <Typography color="text.secondary">{translate('meshwork.dashboard.subtitle')}</Typography>
            </Box>
            <Button label="meshwork.dashboard.refresh" onClick={refresh} variant="outlined">
              <RefreshIcon />
            </Button>
          </Stack>
        </CardContent>
      </Card>
      <DashboardStats />
      <SystemCard />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {translate('meshwork.dashboard.quick_actions')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
        {tiles.map(({ name, icon }) => (
          <QuickActionTile key={name} name={name} icon={icon} />
        ))}
      </Box>
    </Box>
  );
}

import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import type { AdminDashboardStats } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../app/data-provider';
import { formatMoney, useIntlLocale } from '../i18n/intl-locale';
import { LoadFailed, useLoadFailureToast } from '../layout/load-failure';
import { RecentActivity } from './recent-activity';

type Figure = Exclude<keyof AdminDashboardStats, 'recentUsers' | 'recentPayments'>;
// Two rows of cards: the business, then the customers' desktop world (issue 12).
const rows: Figure[][] = [
  ['totalUsers', 'totalRevenue', 'activeSubscriptions', 'monthlyGrowth'],
  ['totalDevices', 'activeDevices', 'totalNetworks', 'suspendedNetworks'],
];

/** How each figure reads: a count, US dollars, or a signed percentage ("+12.5%"). */
function formatFigure(figure: Figure, stats: AdminDashboardStats, intlLocale: string): string {
  const value = stats[figure];
  if (figure === 'totalRevenue') return formatMoney(value, 'USD', intlLocale);
  if (figure === 'monthlyGrowth') {
    return new Intl.NumberFormat(intlLocale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(value / 100);
  }
  return value.toLocaleString(intlLocale);
}

function FigureCard({ figure, stats }: { figure: Figure; stats?: AdminDashboardStats }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  return (
    <Card sx={{ flex: '1 1 180px' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {translate(`meshwork.dashboard.stats.${figure}`)}
        </Typography>
        <Typography variant="h4" component="p">
          {stats ? formatFigure(figure, stats, intlLocale) : <Skeleton width={60} />}
        </Typography>
      </CardContent>
    </Card>
  );
}

/**
 * The dashboard's figures and recent activity, from GET /admin-panel/dashboard/. The refresh
 * button reloads them (react-admin's refresh invalidates every query). A failure shows the
 * spec's error, never made-up figures.
 */
export function DashboardStats() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const onLoadFailure = useLoadFailureToast('meshwork.dashboard.stats.load_failed');
  const { data: stats, error } = useQuery({
    queryKey: ['admin-panel', 'dashboard'],
    queryFn: () => dataProvider.getDashboardStats(),
  });
  // Toasted once the query gives up (after its retries), not on every attempt.
  useEffect(() => {
    if (error) onLoadFailure(error);
  }, [error, onLoadFailure]);
  if (error) return <LoadFailed message="meshwork.dashboard.stats.load_failed" />;
  return (
    <>
      {rows.map((row) => (
        <Box key={row[0]} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }}>
          {row.map((figure) => (
            <FigureCard key={figure} figure={figure} stats={stats} />
          ))}
        </Box>
      ))}
      {stats ? <RecentActivity stats={stats} /> : null}
    </>
  );
}

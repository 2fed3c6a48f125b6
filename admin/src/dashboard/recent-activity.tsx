import { Box, Card, CardContent, Chip, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import type { AdminDashboardStats } from '@meshwork/contracts';
import { formatMoney, useIntlLocale } from '../i18n/intl-locale';

function formatDate(iso: string, intlLocale: string): string {
  return new Date(iso).toLocaleString(intlLocale, { dateStyle: 'short', timeStyle: 'short' });
}

function RecentList({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Card sx={{ flex: '1 1 320px' }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate(title)}
        </Typography>
        {empty ? (
          <Typography color="text.secondary">{translate('meshwork.dashboard.recent.none')}</Typography>
        ) : (
          <List dense>{children}</List>
        )}
      </CardContent>
    </Card>
  );
}

/** The newest sign-ups and payments, as the dashboard stats carry them (spec "Dashboard stats"). */
export function RecentActivity({ stats }: { stats: AdminDashboardStats }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }}>
      <RecentList title="meshwork.dashboard.recent.users" empty={stats.recentUsers.length === 0}>
        {stats.recentUsers.map((user) => (
          <ListItem key={user.id} disableGutters secondaryAction={<Chip size="small" label={user.plan} />}>
            <ListItemText primary={user.username || user.email} secondary={`${user.email} · ${formatDate(user.created_at, intlLocale)}`} />
          </ListItem>
        ))}
      </RecentList>
      <RecentList title="meshwork.dashboard.recent.payments" empty={stats.recentPayments.length === 0}>
        {stats.recentPayments.map((payment) => (
          <ListItem
            key={payment.id}
            disableGutters
            secondaryAction={<Chip size="small" label={translate(`resources.payments.status.${payment.status}`, { _: payment.status })} />}
          >
            <ListItemText
              primary={`${formatMoney(payment.amount, 'USD', intlLocale)} · ${payment.plan}`}
              secondary={`${payment.user} · ${formatDate(payment.date, intlLocale)}`}
            />
          </ListItem>
        ))}
      </RecentList>
    </Box>
  );
}

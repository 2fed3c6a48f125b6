import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AnalyticsReport } from '@meshwork/contracts';
import { formatMoney, useIntlLocale } from '../i18n/intl-locale';
import { changeLabel, countLabel } from './chart-data';

interface FigureProps {
  /** `resources.analytics.summary.<name>`: the card's label and accessible name. */
  name: string;
  value: string;
  /** A change in percent and the i18n key saying against what ("vs the previous period"). */
  change?: { percent: number; against: string };
}

/** Up in green, down in red, no change in grey. */
function changeColour(percent: number): string {
  if (percent > 0) return 'success.main';
  return percent < 0 ? 'error.main' : 'text.secondary';
}

function Figure({ name, value, change }: FigureProps) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const label = translate(`resources.analytics.summary.${name}`);
  return (
    <Card component="section" aria-label={label} sx={{ flex: '1 1 180px' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h4" component="p" data-figure={name}>
          {value}
        </Typography>
        {change ? (
          <Typography variant="body2" color={changeColour(change.percent)}>
            {translate(change.against, { change: changeLabel(change.percent, intlLocale) })}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The period at a glance: accounts, sign-ups, revenue and paid subscriptions (with their change), the most downloaded model. */
export function SummaryCards({ summary }: { summary: AnalyticsReport['summary'] }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }}>
      <Figure name="totalUsers" value={countLabel(summary.totalUsers, intlLocale)} />
      <Figure name="newUsers" value={countLabel(summary.newUsers, intlLocale)} />
      <Figure
        name="totalRevenue"
        value={formatMoney(summary.totalRevenue, 'USD', intlLocale)}
        change={{ percent: summary.revenueGrowth, against: 'resources.analytics.summary.revenue_growth' }}
      />
      <Figure
        name="activeSubscriptions"
        value={countLabel(summary.activeSubscriptions, intlLocale)}
        change={{ percent: summary.subscriptionGrowth, against: 'resources.analytics.summary.subscription_growth' }}
      />
      <Figure name="topModel" value={summary.topModel ?? translate('resources.analytics.summary.no_model')} />
    </Box>
  );
}

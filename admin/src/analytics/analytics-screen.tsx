import { Box, CircularProgress, Stack, Typography } from '@mui/material';
import { Button, Title, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import type { AnalyticsReport } from '@meshwork/contracts';
import { useIntlLocale } from '../i18n/intl-locale';
import { BackIcon } from '../layout/back-icon';
import { LoadFailed } from '../layout/load-failure';
import { ModelUsageChart, PlansChart, RevenueChart, UserGrowthChart } from './analytics-charts';
import { rangeOfSearch } from './analytics-range';
import { dayLabel } from './chart-data';
import { ExportAnalyticsButton } from './export-analytics-button';
import { RangeSelector } from './range-selector';
import { SummaryCards } from './summary-cards';
import { useAnalyticsReport } from './use-analytics-report';

function Report({ report }: { report: AnalyticsReport }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  return (
    <>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {translate('resources.analytics.period', {
          from: dayLabel(report.from, intlLocale, true),
          to: dayLabel(report.to, intlLocale, true),
        })}
      </Typography>
      <SummaryCards summary={report.summary} />
      <Box sx={{ display: 'grid', gap: 2, mt: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 480px), 1fr))' }}>
        <UserGrowthChart data={report.userGrowth} />
        <RevenueChart data={report.revenueData} />
        <PlansChart data={report.subscriptionMetrics} />
        <ModelUsageChart data={report.modelUsage} />
      </Box>
    </>
  );
}

/**
 * /admin/analytics: the period's users, revenue, plans and model downloads, as figures and
 * charts, for staff and auditors. The range lives in the address (`?range=7d`), so a link shows
 * the same period; Export CSV saves the report shown. A failure shows the spec's error and Try
 * Again, never sample figures.
 */
export function AnalyticsScreen() {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const range = rangeOfSearch(search);
  const { data: report, error, isFetching, refetch } = useAnalyticsReport(range);
  let content;
  if (error) {
    content = <LoadFailed message="resources.analytics.notifications.load_failed" onRetry={() => void refetch()} retrying={isFetching} />;
  } else if (!report) {
    content = (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={translate('ra.page.loading')} />
      </Box>
    );
  } else content = <Report report={report} />;
  return (
    <Box sx={{ mt: 2, minWidth: 0 }}>
      <Title title={translate('resources.analytics.name', { smart_count: 2 })} />
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Button to="/" label="resources.analytics.actions.back_to_dashboard">
          <BackIcon />
        </Button>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <RangeSelector range={range} onChange={(next) => setSearch({ range: next })} />
          <ExportAnalyticsButton report={report} />
        </Stack>
      </Stack>
      {content}
    </Box>
  );
}

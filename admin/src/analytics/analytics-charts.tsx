import { useTheme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsReport } from '@meshwork/contracts';
import { formatMoney, useIntlLocale } from '../i18n/intl-locale';
import { ChartCard } from './chart-card';
import { countLabel, dayLabel, hasData, percentLabel } from './chart-data';

/** The axes' and tooltips' words and numbers in the console's language, and the theme's colours. */
function useChartText() {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const { palette } = useTheme();
  return {
    series: (name: string) => translate(`resources.analytics.series.${name}`),
    day: (day: string) => dayLabel(day, intlLocale),
    longDay: (day: unknown) => dayLabel(String(day), intlLocale, true),
    count: (value: number) => countLabel(value, intlLocale),
    money: (value: number) => formatMoney(value, 'USD', intlLocale),
    percent: (value: number) => percentLabel(value, intlLocale),
    colours: [palette.primary.main, palette.warning.main, palette.success.main],
    grid: palette.divider,
  };
}

/** Accounts at the end of each day, and the day's sign-ups. */
export function UserGrowthChart({ data }: { data: AnalyticsReport['userGrowth'] }) {
  const text = useChartText();
  return (
    <ChartCard title="resources.analytics.charts.growth" hasData={hasData(data, ['totalUsers', 'newUsers'])}>
      <LineChart data={data}>
        <CartesianGrid strokeDasharray="3 3" stroke={text.grid} />
        <XAxis dataKey="date" tickFormatter={text.day} minTickGap={24} />
        <YAxis yAxisId="total" allowDecimals={false} tickFormatter={text.count} />
        <YAxis yAxisId="new" orientation="right" allowDecimals={false} tickFormatter={text.count} />
        <Tooltip labelFormatter={text.longDay} formatter={(value) => text.count(Number(value))} />
        <Legend />
        <Line yAxisId="total" dataKey="totalUsers" name={text.series('totalUsers')} stroke={text.colours[0]} dot={false} />
        <Line yAxisId="new" dataKey="newUsers" name={text.series('newUsers')} stroke={text.colours[1]} dot={false} />
      </LineChart>
    </ChartCard>
  );
}

/** Each day's revenue net of refunds, and its payments. */
export function RevenueChart({ data }: { data: AnalyticsReport['revenueData'] }) {
  const text = useChartText();
  return (
    <ChartCard title="resources.analytics.charts.revenue" hasData={hasData(data, ['revenue', 'transactions'])}>
      <LineChart data={data}>
        <CartesianGrid strokeDasharray="3 3" stroke={text.grid} />
        <XAxis dataKey="date" tickFormatter={text.day} minTickGap={24} />
        <YAxis yAxisId="revenue" tickFormatter={text.money} width={80} />
        <YAxis yAxisId="transactions" orientation="right" allowDecimals={false} tickFormatter={text.count} />
        <Tooltip
          labelFormatter={text.longDay}
          formatter={(value, _name, item) => (item.dataKey === 'revenue' ? text.money(Number(value)) : text.count(Number(value)))}
        />
        <Legend />
        <Line yAxisId="revenue" dataKey="revenue" name={text.series('revenue')} stroke={text.colours[0]} dot={false} />
        <Line yAxisId="transactions" dataKey="transactions" name={text.series('transactions')} stroke={text.colours[1]} dot={false} />
      </LineChart>
    </ChartCard>
  );
}

/** Each paid plan's subscribers at the end of the period, with its conversion and churn rates. */
export function PlansChart({ data }: { data: AnalyticsReport['subscriptionMetrics'] }) {
  const text = useChartText();
  return (
    <ChartCard title="resources.analytics.charts.plans" hasData={hasData(data, ['activeSubscriptions', 'conversionRate', 'churnRate'])}>
      <BarChart data={data}>
        <CartesianGrid strokeDasharray="3 3" stroke={text.grid} />
        <XAxis dataKey="planName" />
        <YAxis yAxisId="count" allowDecimals={false} tickFormatter={text.count} />
        <YAxis yAxisId="percent" orientation="right" tickFormatter={text.percent} />
        <Tooltip
          formatter={(value, _name, item) =>
            item.dataKey === 'activeSubscriptions' ? text.count(Number(value)) : text.percent(Number(value))
          }
        />
        <Legend />
        <Bar yAxisId="count" dataKey="activeSubscriptions" name={text.series('activeSubscriptions')} fill={text.colours[0]} />
        <Bar yAxisId="percent" dataKey="conversionRate" name={text.series('conversionRate')} fill={text.colours[1]} />
        <Bar yAxisId="percent" dataKey="churnRate" name={text.series('churnRate')} fill={text.colours[2]} />
      </BarChart>
    </ChartCard>
  );
}

/** Each model's downloads in the period, and by how many people. */
export function ModelUsageChart({ data }: { data: AnalyticsReport['modelUsage'] }) {
  const text = useChartText();
  return (
    <ChartCard title="resources.analytics.charts.models" hasData={hasData(data, ['usageCount', 'uniqueUsers'])}>
      <BarChart data={data}>
        <CartesianGrid strokeDasharray="3 3" stroke={text.grid} />
        <XAxis dataKey="modelName" />
        <YAxis allowDecimals={false} tickFormatter={text.count} />
        <Tooltip formatter={(value) => text.count(Number(value))} />
        <Legend />
        <Bar dataKey="usageCount" name={text.series('usageCount')} fill={text.colours[0]} />
        <Bar dataKey="uniqueUsers" name={text.series('uniqueUsers')} fill={text.colours[1]} />
      </BarChart>
    </ChartCard>
  );
}

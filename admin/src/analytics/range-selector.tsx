import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ANALYTICS_RANGES, type AnalyticsRange } from './analytics-range';

/** Last 7 days, 30 days (the default), 90 days or year: one always chosen. */
export function RangeSelector({ range, onChange }: { range: AnalyticsRange; onChange: (range: AnalyticsRange) => void }) {
  const translate = useTranslate();
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={range}
      // Clicking the chosen range again would clear the choice: ignore that.
      onChange={(_event, next: AnalyticsRange | null) => next && onChange(next)}
      aria-label={translate('resources.analytics.range')}
    >
      {ANALYTICS_RANGES.map((option) => (
        <ToggleButton key={option} value={option}>
          {translate(`resources.analytics.ranges.${option}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

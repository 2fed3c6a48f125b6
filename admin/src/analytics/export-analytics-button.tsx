import DownloadIcon from '@mui/icons-material/Download';
import { Button, downloadCSV, useNotify } from 'react-admin';
import type { AnalyticsReport } from '@meshwork/contracts';
import { analyticsCsv, analyticsCsvName } from './analytics-csv';

/** Export CSV: the report on screen, every series of it, made in the browser (spec section 2). */
export function ExportAnalyticsButton({ report }: { report: AnalyticsReport | undefined }) {
  const notify = useNotify();
  const exportCsv = () => {
    if (!report) return;
    downloadCSV(analyticsCsv(report), analyticsCsvName(report));
    notify('resources.analytics.notifications.exported', { type: 'success' });
  };
  return (
    <Button label="resources.analytics.actions.export" onClick={exportCsv} disabled={!report}>
      <DownloadIcon />
    </Button>
  );
}

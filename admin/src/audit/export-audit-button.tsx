import DownloadIcon from '@mui/icons-material/Download';
import { useMutation } from '@tanstack/react-query';
import { Button, downloadCSV, useDataProvider, useNotify } from 'react-admin';
import type { ConsoleDataProvider } from '../app/data-provider';
import type { AuditFilterValues } from './audit-filter';

/**
 * Export CSV: the server's export of every entry the filters match (not only the pages shown),
 * fetched with the staff member's token and saved under the name the server gives it.
 */
export function ExportAuditButton({ filter }: { filter: AuditFilterValues }) {
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const download = useMutation({
    mutationFn: () => dataProvider.exportAudit(filter),
    onSuccess: ({ csv, name }) => {
      downloadCSV(csv, name);
      notify('resources.audit.notifications.exported', { type: 'success' });
    },
    onError: () => notify('resources.audit.notifications.export_failed', { type: 'error' }),
  });
  return (
    <Button label="resources.audit.actions.export" onClick={() => download.mutate()} disabled={download.isPending}>
      <DownloadIcon />
    </Button>
  );
}

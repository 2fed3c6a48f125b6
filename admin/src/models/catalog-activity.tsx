import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../app/data-provider';
import { useIntlLocale } from '../i18n/intl-locale';
import { catalogKeys } from './catalog-api';
import { formatDateTime } from './model-format';

// The latest few are what a glance needs; the event log keeps the rest.
const SHOWN = 25;

/** What staff did to models and releases, as the server's event log recorded it (spec "Admin audit logging"). */
export function CatalogActivity() {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const audit = useQuery({ queryKey: catalogKeys.audit, queryFn: () => dataProvider.getCatalogAudit() });
  const field = (name: string) => translate(`resources.models.activity.fields.${name}`);
  const entries = [...(audit.data ?? [])].sort((a, b) => b.timestamp.localeCompare(a.timestamp)).slice(0, SHOWN);
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('resources.models.activity.title')}
      </Typography>
      {audit.isError ? <Alert severity="error">{translate('resources.models.activity.load_failed')}</Alert> : null}
      {audit.isSuccess && entries.length === 0 ? (
        <Typography color="text.secondary">{translate('resources.models.activity.empty')}</Typography>
      ) : null}
      {entries.length > 0 ? (
        <Table size="small" aria-label={translate('resources.models.activity.title')}>
          <TableHead>
            <TableRow>
              {['timestamp', 'action', 'resource', 'details', 'admin'].map((name) => (
                <TableCell key={name}>{field(name)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {entries.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.timestamp, intlLocale)}</TableCell>
                <TableCell>{translate(`resources.models.activity.actions.${entry.action}`, { _: entry.action })}</TableCell>
                <TableCell>{translate(`resources.models.activity.resources.${entry.resource}`, { _: entry.resource })}</TableCell>
                <TableCell>{entry.details}</TableCell>
                <TableCell>{entry.adminId ?? '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </Box>
  );
}

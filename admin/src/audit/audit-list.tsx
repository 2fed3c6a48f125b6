import { Box, Card, Stack } from '@mui/material';
import { Button, Title, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { BackIcon } from '../layout/back-icon';
import { auditQueryOf, type AuditFilterValues, filterOfSearch } from './audit-filter';
import { AuditFilterForm } from './audit-filter-form';
import { AuditTable } from './audit-table';
import { ExportAuditButton } from './export-audit-button';
import { useAuditTrail } from './use-audit-trail';

/**
 * /admin/audit (issue 15): the event log as staff and auditors read it, newest first, filtered
 * by actor, action, resource, request or time. The filters live in the address, so a link
 * shows the same entries; Export CSV downloads every entry they match.
 */
export function AuditList() {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const filter = filterOfSearch(search);
  const trail = useAuditTrail(filter);
  const apply = (next: AuditFilterValues) => setSearch(new URLSearchParams(auditQueryOf(next)));
  const title = translate('resources.audit.name', { smart_count: 2 });
  return (
    <Box sx={{ mt: 2, minWidth: 0 }}>
      <Title title={title} />
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Button to="/" label="resources.audit.actions.back_to_dashboard">
          <BackIcon />
        </Button>
        <ExportAuditButton filter={filter} />
      </Stack>
      {/* Mounted afresh for each address: a clicked correlation id or a shared link fills the form too. */}
      <AuditFilterForm key={auditQueryOf(filter)} filter={filter} onApply={apply} />
      <Card variant="outlined">
        <AuditTable trail={trail} empty="resources.audit.empty" label={title} />
      </Card>
    </Box>
  );
}

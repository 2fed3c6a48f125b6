import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AuditEntry } from './audit-entry';
import { AUDIT_COLUMNS, AuditRow } from './audit-row';
import type { useAuditTrail } from './use-audit-trail';

interface AuditTableProps {
  trail: ReturnType<typeof useAuditTrail>;
  /** Shown when nothing matches. */
  empty: string;
  /** The table's accessible name. */
  label: string;
  /** Offers each row's "View as of", when the entries are one resource's. */
  onViewAsOf?: (entry: AuditEntry) => void;
}

/** Audit entries as a table, newest first, with Load more while older ones remain: the Audit screen's and every History tab's. */
export function AuditTable({ trail, empty, label, onViewAsOf }: AuditTableProps) {
  const translate = useTranslate();
  if (trail.error) return <Alert severity="error">{translate('resources.audit.notifications.load_failed')}</Alert>;
  if (trail.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress aria-label={translate('ra.page.loading')} />
      </Box>
    );
  }
  if (trail.entries.length === 0)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {translate(empty)}
      </Typography>
    );
  return (
    <>
      <TableContainer>
        {/* Narrow cells: eight columns fit a laptop's width without scrolling sideways. */}
        <Table size="small" aria-label={label} sx={{ '& td, & th': { px: 1 } }}>
          <TableHead>
            <TableRow>
              {AUDIT_COLUMNS.map((name) => (
                <TableCell key={name}>{translate(`resources.audit.fields.${name}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {trail.entries.map((entry: AuditEntry) => (
              <AuditRow key={entry.id} entry={entry} onViewAsOf={onViewAsOf} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {trail.hasMore ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <Button variant="outlined" onClick={trail.loadMore} disabled={trail.isLoadingMore}>
            {translate(trail.isLoadingMore ? 'ra.page.loading' : 'resources.audit.actions.load_more')}
          </Button>
        </Box>
      ) : null}
    </>
  );
}

import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import HistoryIcon from '@mui/icons-material/History';
import { Box, Chip, IconButton, Link, TableCell, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import { useIntlLocale } from '../i18n/intl-locale';
import { auditLinkOf, type AuditFilterValues } from './audit-filter';
import { actorEmailOf, type AuditEntry, detailsSummaryOf, detailsTextOf } from './audit-entry';

/** The columns of a row, in order; their headers are `resources.audit.fields.<name>`. */
export const AUDIT_COLUMNS = ['timestamp', 'action', 'resource', 'actor', 'staff', 'ip_address', 'correlation_id', 'details'] as const;

const mono = { fontFamily: 'monospace', fontSize: '0.8rem' } as const;

/** A link to the Audit screen showing the entries `filter` matches. */
function AuditLink({ filter, label, children }: { filter: AuditFilterValues; label: string; children: string }) {
  return (
    <Link
      component={RouterLink}
      to={auditLinkOf(filter)}
      title={label}
      aria-label={label}
      dir="ltr"
      sx={{ ...mono, wordBreak: 'break-all' }}
    >
      {children}
    </Link>
  );
}

/** What only the expanded row shows: the event's ids, the actor's user agent and the details in full. */
function EntryDetails({ entry }: { entry: AuditEntry }) {
  const translate = useTranslate();
  const facts: [string, string | number | null | undefined][] = [
    ['event_id', entry.id],
    ['position', entry.position],
    ['version', entry.version],
    ['causation_id', entry.causation_id],
    ['user_agent', entry.actor?.user_agent],
    ['api_token_id', entry.actor?.api_token_id],
  ];
  return (
    <Box sx={{ display: 'grid', gap: 1, py: 1 }}>
      {facts.map(([name, value]) => (
        <Typography key={name} variant="body2">
          {translate(`resources.audit.fields.${name}`)}:{' '}
          <Box component="span" dir="ltr" sx={mono}>
            {value ?? '—'}
          </Box>
        </Typography>
      ))}
      <Box
        component="pre"
        dir="ltr"
        sx={{ ...mono, m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      >
        {detailsTextOf(entry.details)}
      </Box>
    </Box>
  );
}

interface AuditRowProps {
  entry: AuditEntry;
  /** Shows the resource as of this entry; without it (the Audit screen, a History of many resources) the row offers no such view. */
  onViewAsOf?: (entry: AuditEntry) => void;
}

/**
 * One audit entry: when, what, to which resource, by whom (or the system), from where and in
 * which request. The resource and the correlation id open the Audit screen filtered by them;
 * the details expand below the row.
 */
export function AuditRow({ entry, onViewAsOf }: AuditRowProps) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const [open, setOpen] = useState(false);
  const email = actorEmailOf(entry);
  const toggle = translate(open ? 'resources.audit.actions.hide_details' : 'resources.audit.actions.show_details');
  return (
    <>
      <TableRow data-position={entry.position} sx={{ '& > td': { borderBottom: open ? 'unset' : undefined } }}>
        <TableCell>{new Date(entry.timestamp).toLocaleString(intlLocale, { dateStyle: 'short', timeStyle: 'medium' })}</TableCell>
        <TableCell sx={mono}>{entry.action}</TableCell>
        <TableCell>
          <Chip
            size="small"
            variant="outlined"
            label={translate(`resources.audit.resource_types.${entry.resource}`, { _: entry.resource })}
          />{' '}
          <AuditLink
            filter={{ resource_type: entry.resource, resource_id: entry.resource_id }}
            label={translate('resources.audit.actions.filter_resource', { id: entry.resource_id })}
          >
            {entry.resource_id}
          </AuditLink>
        </TableCell>
        {/* bdi: an email keeps its own direction inside a right-to-left page. */}
        <TableCell>
          {email ? <bdi>{email}</bdi> : translate('resources.audit.system')}
          {entry.actor?.api_token_id ? ` (${translate('resources.audit.via_api_token')})` : null}
        </TableCell>
        <TableCell>{entry.actor ? translate(entry.actor.is_staff ? 'resources.audit.yes' : 'resources.audit.no') : '—'}</TableCell>
        <TableCell sx={{ ...mono, whiteSpace: 'nowrap' }} dir="ltr">
          {entry.actor?.ip_address ?? '—'}
        </TableCell>
        <TableCell>
          <AuditLink
            filter={{ correlation_id: entry.correlation_id }}
            label={translate('resources.audit.actions.filter_correlation', { id: entry.correlation_id })}
          >
            {entry.correlation_id.slice(0, 8)}
          </AuditLink>
        </TableCell>
        <TableCell>
          {/* A capped box: a table cell alone would widen to the whole unwrapped line. */}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, maxWidth: 240 }}>
            <Typography variant="body2" dir="ltr" sx={{ ...mono, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {detailsSummaryOf(entry.details)}
            </Typography>
            <IconButton size="small" aria-label={toggle} title={toggle} aria-expanded={open} onClick={() => setOpen(!open)}>
              {open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
            </IconButton>
            {onViewAsOf ? (
              <IconButton
                size="small"
                aria-label={translate('resources.audit.replay.view_as_of')}
                title={translate('resources.audit.replay.view_as_of')}
                onClick={() => onViewAsOf(entry)}
              >
                <HistoryIcon fontSize="small" />
              </IconButton>
            ) : null}
          </Box>
        </TableCell>
      </TableRow>
      {open ? (
        <TableRow>
          <TableCell colSpan={AUDIT_COLUMNS.length}>
            <EntryDetails entry={entry} />
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}

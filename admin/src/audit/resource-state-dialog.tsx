import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { ResourceSnapshot, StateChange } from '@meshwork/contracts';
import { useIntlLocale } from '../i18n/intl-locale';
import type { AuditEntry } from './audit-entry';
import { isComplete, type LogPoint, stateQueryOf } from './log-point';
import { PointPicker } from './point-picker';
import { ChangesTable, StateTable } from './state-tables';
import { replayErrorOf, useResourceState } from './use-resource-state';

interface ReplayProps {
  resourceType: string;
  resourceId: string;
  asOf: LogPoint;
  compareTo: LogPoint | null;
}

/** How a heading names a point: the entry's action and time, the time typed, or now. */
function usePointLabel(): (point: LogPoint) => string {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const time = (iso: string) => new Date(iso).toLocaleString(intlLocale, { dateStyle: 'short', timeStyle: 'medium' });
  return (point) => {
    if (point.kind === 'now') return translate('resources.audit.replay.now');
    return point.kind === 'time' ? time(point.iso) : `${point.entry.action} (${time(point.entry.timestamp)})`;
  };
}

/** Where a snapshot stands: its last event's position, the stream's version then, and that event's time. */
function SnapshotFacts({ snapshot }: { snapshot: ResourceSnapshot }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  if (snapshot.version === 0) return <Alert severity="info">{translate('resources.audit.replay.not_yet')}</Alert>;
  const time = snapshot.timestamp
    ? new Date(snapshot.timestamp).toLocaleString(intlLocale, { dateStyle: 'short', timeStyle: 'medium' })
    : '—';
  return (
    <Typography variant="body2" color="text.secondary">
      {translate('resources.audit.replay.snapshot', { position: snapshot.position ?? '—', version: snapshot.version, time })}
    </Typography>
  );
}

/** The state as of the chosen point and, with a second point, what changed between the two, in time order. */
function Replay({ resourceType, resourceId, asOf, compareTo }: ReplayProps) {
  const translate = useTranslate();
  const labelOf = usePointLabel();
  const complete = isComplete(asOf) && isComplete(compareTo);
  const { query, swapped } = stateQueryOf(asOf, compareTo);
  const result = useResourceState(resourceType, resourceId, query, complete);
  if (!complete) return <Typography color="text.secondary">{translate('resources.audit.replay.enter_time')}</Typography>;
  if (result.error) {
    return (
      <Alert severity="error">
        <AlertTitle>{translate('resources.audit.replay.load_failed')}</AlertTitle>
        {replayErrorOf(result.error)}
      </Alert>
    );
  }
  if (result.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress aria-label={translate('ra.page.loading')} />
      </Box>
    );
  }
  const { as_of: later, compare_to: earlier, changes } = result.data;
  const shown = swapped && earlier ? earlier : later;
  const [from, to] = compareTo && swapped ? [asOf, compareTo] : [compareTo, asOf];
  const stateLabel = translate('resources.audit.replay.state_label', { point: labelOf(asOf) });
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2" component="h3">
        {stateLabel}
      </Typography>
      <SnapshotFacts snapshot={shown} />
      {shown.version > 0 ? <StateTable state={shown.state} label={stateLabel} /> : null}
      {from ? (
        <Changes label={translate('resources.audit.replay.changes', { from: labelOf(from), to: labelOf(to) })} changes={changes} />
      ) : null}
    </Stack>
  );
}

/** The changes between the two points under their heading, or a line saying there were none. */
function Changes({ label, changes }: { label: string; changes: StateChange[] }) {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="subtitle2" component="h3" sx={{ pt: 2 }}>
        {label}
      </Typography>
      {changes.length > 0 ? (
        <ChangesTable changes={changes} label={label} />
      ) : (
        <Typography color="text.secondary">{translate('resources.audit.replay.no_changes')}</Typography>
      )}
    </>
  );
}

interface ResourceStateDialogProps {
  resourceType: string;
  resourceId: string;
  /** The History's entry the dialog opens at. */
  entry: AuditEntry;
  /** The History's entries loaded so far: the points to move to or compare with. */
  entries: AuditEntry[];
  onClose: () => void;
}

/**
 * A resource "as of" a point of its History (issue 15 §2): its stream folded by the api up to
 * an entry, a time or now, and compared with a second point. It only reads, so auditors use
 * it as staff do.
 */
export function ResourceStateDialog({ resourceType, resourceId, entry, entries, onClose }: ResourceStateDialogProps) {
  const translate = useTranslate();
  const [asOf, setAsOf] = useState<LogPoint>({ kind: 'entry', entry });
  const [compareTo, setCompareTo] = useState<LogPoint | null>(null);
  const resource = translate(`resources.audit.resource_types.${resourceType}`, { _: resourceType });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="resource-state-title">
      <DialogTitle id="resource-state-title">
        {translate('resources.audit.replay.title', { resource })}{' '}
        <Typography component="span" dir="ltr" sx={{ fontFamily: 'monospace', fontSize: '0.85rem' }}>
          {resourceId}
        </Typography>
      </DialogTitle>
      <DialogContent>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ pt: 1, pb: 2 }}>
          <PointPicker
            label="resources.audit.replay.as_of"
            timeLabel="resources.audit.replay.as_of_time"
            value={asOf}
            onChange={(point) => point && setAsOf(point)}
            entries={entries}
          />
          <PointPicker
            label="resources.audit.replay.compare_with"
            timeLabel="resources.audit.replay.compare_time"
            value={compareTo}
            onChange={setCompareTo}
            entries={entries}
            optional
          />
        </Stack>
        <Replay resourceType={resourceType} resourceId={resourceId} asOf={asOf} compareTo={compareTo} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('resources.audit.replay.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

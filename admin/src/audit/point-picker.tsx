import { Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useIntlLocale } from '../i18n/intl-locale';
import type { AuditEntry } from './audit-entry';
import { isoOfLocalInput } from './audit-filter';
import type { LogPoint } from './log-point';

interface PointPickerProps {
  /** The i18n key of the choice's label. */
  label: string;
  /** The i18n key of the time input's label, shown once "A time…" is chosen. */
  timeLabel: string;
  value: LogPoint | null;
  onChange: (point: LogPoint | null) => void;
  /** The History's entries loaded so far, newest first: each is a point to choose. */
  entries: AuditEntry[];
  /** Offers "No comparison" (null) too. */
  optional?: boolean;
}

const choiceOf = (point: LogPoint | null): string =>
  point === null ? 'none' : point.kind === 'entry' ? String(point.entry.position) : point.kind;

/** A choice of a point in a resource's log: one of its entries, now, or a time typed in the browser's time zone. */
export function PointPicker({ label, timeLabel, value, onChange, entries, optional = false }: PointPickerProps) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const [local, setLocal] = useState('');
  const choose = (choice: string) => {
    if (choice === 'none') onChange(null);
    else if (choice === 'now') onChange({ kind: 'now' });
    else if (choice === 'time') onChange({ kind: 'time', iso: isoOfLocalInput(local) });
    else {
      const entry = entries.find((candidate) => String(candidate.position) === choice);
      if (entry) onChange({ kind: 'entry', entry });
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ flex: 1, minWidth: 0 }}>
      {/* A native select: long entry names stay readable, and keyboards and tests pick by value. */}
      <TextField
        select
        size="small"
        label={translate(label)}
        value={choiceOf(value)}
        onChange={(event) => choose(event.target.value)}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        sx={{ flex: 1, minWidth: 0 }}
      >
        {optional ? <option value="none">{translate('resources.audit.replay.no_comparison')}</option> : null}
        <option value="now">{translate('resources.audit.replay.now')}</option>
        {entries.map((entry) => (
          <option key={entry.id} value={String(entry.position)}>
            {`${new Date(entry.timestamp).toLocaleString(intlLocale, { dateStyle: 'short', timeStyle: 'medium' })} · ${entry.action} · #${entry.position}`}
          </option>
        ))}
        <option value="time">{translate('resources.audit.replay.a_time')}</option>
      </TextField>
      {value?.kind === 'time' ? (
        <TextField
          size="small"
          type="datetime-local"
          label={translate(timeLabel)}
          value={local}
          onChange={(event) => {
            setLocal(event.target.value);
            onChange({ kind: 'time', iso: isoOfLocalInput(event.target.value) });
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
        />
      ) : null}
    </Stack>
  );
}

import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, MenuItem, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslate } from 'react-admin';
import { type AuditFilterName, type AuditFilterValues, isoOfLocalInput, localInputOf, RESOURCE_TYPES } from './audit-filter';

const TEXT_FILTERS: AuditFilterName[] = ['actor', 'action', 'resource_id', 'correlation_id'];

interface AuditFilterFormProps {
  filter: AuditFilterValues;
  onApply: (filter: AuditFilterValues) => void;
}

/**
 * The Audit screen's filters. They are edited here and applied together (Apply, or Enter),
 * not at each keystroke; times are typed in the browser's time zone and applied as instants.
 * The screen mounts it afresh when the address changes, so it always starts from the address.
 */
export function AuditFilterForm({ filter, onApply }: AuditFilterFormProps) {
  const translate = useTranslate();
  const [draft, setDraft] = useState<AuditFilterValues>(filter);
  const label = (name: string) => translate(`resources.audit.filters.${name}`);
  const set = (name: AuditFilterName) => (value: string) => setDraft((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };

  return (
    <Box
      component="form"
      onSubmit={submit}
      aria-label={translate('resources.audit.filters.title')}
      sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', alignItems: 'center', py: 2 }}
    >
      {TEXT_FILTERS.map((name) => (
        <TextField
          key={name}
          size="small"
          label={label(name)}
          value={draft[name] ?? ''}
          onChange={(event) => set(name)(event.target.value)}
        />
      ))}
      <TextField
        select
        size="small"
        label={label('resource_type')}
        value={draft.resource_type ?? ''}
        onChange={(event) => set('resource_type')(event.target.value)}
      >
        <MenuItem value="">{label('any_resource')}</MenuItem>
        {RESOURCE_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {translate(`resources.audit.resource_types.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      {(['from', 'to'] as const).map((name) => (
        <TextField
          key={name}
          size="small"
          type="datetime-local"
          label={label(name)}
          value={localInputOf(draft[name])}
          onChange={(event) => set(name)(isoOfLocalInput(event.target.value))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      ))}
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
          {translate('resources.audit.actions.apply')}
        </Button>
        <Button onClick={() => onApply({})} startIcon={<FilterAltOffIcon />}>
          {translate('resources.audit.actions.clear')}
        </Button>
      </Box>
    </Box>
  );
}

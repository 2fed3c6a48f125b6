import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { StateChange } from '@meshwork/contracts';
import { useTranslate } from 'react-admin';
import { stateRowsOf, valueTextOf } from './log-point';

const mono = { fontFamily: 'monospace', fontSize: '0.8rem', wordBreak: 'break-word' } as const;

/** Cells in code's direction: paths and JSON read left to right inside a right-to-left page too. */
function CodeCell({ children }: { children: string }) {
  return (
    <TableCell dir="ltr" sx={mono}>
      {children}
    </TableCell>
  );
}

function Headers({ names }: { names: string[] }) {
  const translate = useTranslate();
  return (
    <TableHead>
      <TableRow>
        {names.map((name) => (
          <TableCell key={name}>{translate(`resources.audit.replay.${name}`)}</TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

/** A replayed state, one row per field by dotted path (the paths the changes name). */
export function StateTable({ state, label }: { state: Record<string, unknown>; label: string }) {
  return (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <Headers names={['field', 'value']} />
        <TableBody>
          {stateRowsOf(state).map(({ path, value }) => (
            <TableRow key={path}>
              <CodeCell>{path}</CodeCell>
              <CodeCell>{valueTextOf(value)}</CodeCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The fields that differ between two points: their value at the earlier point (before) and at the later one (after). */
export function ChangesTable({ changes, label }: { changes: StateChange[]; label: string }) {
  return (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <Headers names={['field', 'before', 'after']} />
        <TableBody>
          {changes.map((change) => (
            <TableRow key={change.path}>
              <CodeCell>{change.path}</CodeCell>
              <CodeCell>{valueTextOf(change.from)}</CodeCell>
              <CodeCell>{valueTextOf(change.to)}</CodeCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

import type { UsageFigures } from '@meshwork/contracts';
import { formatBusy, formatCount } from './usage-figures';

/** One table of usage rows (per model or per device): name, requests, tokens, busy time. */
export function UsageTable({
  label,
  heading,
  rows,
}: {
  label: string;
  heading: string;
  rows: (UsageFigures & { key: string; name: string })[];
}) {
  return (
    <table aria-label={label} className="mt-2 w-full text-left text-sm">
      <thead className="text-xs text-slate-500 dark:text-slate-400">
        <tr>
          <th className="py-1 font-medium">{heading}</th>
          <th className="py-1 text-right font-medium">Requests</th>
          <th className="py-1 text-right font-medium">Tokens</th>
          <th className="py-1 text-right font-medium">Busy</th>
        </tr>
      </thead>
      <tbody className="text-slate-900 dark:text-white">
        {rows.map((row) => (
          <tr key={row.key} className="border-t border-slate-100 dark:border-slate-800">
            <td className="max-w-40 truncate py-1 font-medium" title={row.name}>
              {row.name}
            </td>
            <td className="py-1 text-right tabular-nums">{formatCount(row.requests)}</td>
            <td className="py-1 text-right tabular-nums">{formatCount(row.prompt_tokens + row.completion_tokens)}</td>
            <td className="py-1 text-right tabular-nums">{formatBusy(row.busy_ms)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from './button';

/**
 * A secret the api shows this once (an API token, a webhook signing secret): read-only,
 * selected on focus, with a copy button and a line that says whether the clipboard took it,
 * since a failed copy must not pass unnoticed when the secret cannot be shown again.
 * `noun` names it in that line ("token", "secret").
 */
export function ShownOnceSecret({ label, value, noun }: { label: string; value: string; noun: string }) {
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <>
      <label htmlFor={id} className="mt-4 mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="block h-10 w-full rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        />
        <Button variant="secondary" onClick={() => void copy()}>
          {copied === 'yes' ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="mt-1.5 min-h-5 text-xs text-slate-500 dark:text-slate-400">
        {copied === 'yes' && `${noun.charAt(0).toUpperCase()}${noun.slice(1)} copied to the clipboard.`}
        {copied === 'failed' && `Could not reach the clipboard: select the ${noun} and copy it yourself.`}
      </p>
    </>
  );
}

import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { verifySignatureExample } from '../../../shared/webhooks/signature-example';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';

/**
 * A signing secret, shown this once (the api keeps only what it needs to sign), with a copy
 * button and how a receiver checks the signature with it.
 */
export function SecretDialog({ title, secret, note, onClose }: { title: string; secret: string; note?: string; onClose: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );

  return (
    <Dialog title={title} onClose={onClose} className="max-w-2xl">
      <p className="text-sm text-slate-700 dark:text-slate-200">
        Copy the signing secret now: it is shown only this once. Your receiver uses it to check that each request came from Meshwork.
      </p>
      <label htmlFor="webhook-secret" className="mt-4 mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        Signing secret
      </label>
      <div className="flex gap-2">
        <input
          id="webhook-secret"
          readOnly
          value={secret}
          onFocus={(event) => event.currentTarget.select()}
          className="block h-10 w-full rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        />
        <Button variant="secondary" onClick={() => void copy()}>
          {copied === 'yes' ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="mt-1.5 min-h-5 text-xs text-slate-500 dark:text-slate-400">
        {copied === 'yes' && 'Secret copied to the clipboard.'}
        {copied === 'failed' && 'Could not reach the clipboard: select the secret and copy it yourself.'}
      </p>
      {note && <p className="mt-2 text-sm text-slate-700 dark:text-slate-200">{note}</p>}
      <h3 className="mt-5 text-sm font-semibold text-slate-900 dark:text-white">Verify each request</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Each request carries a <code>Meshwork-Signature</code> header: <code>t=</code> the time it was signed and <code>v1=</code> an
        HMAC-SHA256 of <code>t.body</code> with this secret. In Node:
      </p>
      <pre className="mt-3 max-h-64 overflow-auto rounded-xl bg-slate-950 p-4 text-xs leading-5 text-slate-100">
        <code>{verifySignatureExample}</code>
      </pre>
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose}>Done</Button>
      </div>
    </Dialog>
  );
}

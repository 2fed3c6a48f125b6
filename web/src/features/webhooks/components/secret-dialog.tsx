import { verifySignatureExample } from '../../../shared/webhooks/signature-example';
import { Button } from '../../../shared/ui/button';
import { Dialog } from '../../../shared/ui/dialog';
import { ShownOnceSecret } from '../../../shared/ui/shown-once-secret';

/**
 * A signing secret, shown this once (the api keeps only what it needs to sign), with a copy
 * button and how a receiver checks the signature with it.
 */
export function SecretDialog({ title, secret, note, onClose }: { title: string; secret: string; note?: string; onClose: () => void }) {
  return (
    <Dialog title={title} onClose={onClose} className="max-w-2xl">
      <p className="text-sm text-slate-700 dark:text-slate-200">
        Copy the signing secret now: it is shown only this once. Your receiver uses it to check that each request came from Meshwork.
      </p>
      <ShownOnceSecret label="Signing secret" value={secret} noun="secret" />
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

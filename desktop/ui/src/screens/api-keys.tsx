import { type FormEvent, useEffect, useState } from 'react';
import type { CreatedHostApiKey, HostApiKeys } from '@meshwork/contracts';
import { command, getJson } from '../host-client';
import { fill, useI18n } from '../i18n';
import { refusalText } from '../messages';
import { useAction } from './use-action';

/** The keys of the host's OpenAI-compatible api: created (shown once), listed, revoked. */
export function ApiKeysScreen() {
  const { t, time } = useI18n();
  const [keys, setKeys] = useState<HostApiKeys | null>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedHostApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const { busy, error, run } = useAction();
  useEffect(() => {
    void run(async () => setKeys(await getJson<HostApiKeys>('/host/api-keys')));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the screen opens
  }, []);

  async function create(event: FormEvent) {
    event.preventDefault();
    const key = await run(() => command<CreatedHostApiKey>('/host/api-keys', { name }));
    if (!key) return;
    setCreated(key);
    setCopied(false);
    setName('');
    await run(async () => setKeys(await getJson<HostApiKeys>('/host/api-keys')));
  }

  async function revoke(id: string, keyName: string) {
    if (!window.confirm(fill(t.confirmRevoke, { name: keyName }))) return;
    const left = await run(() => command<HostApiKeys>('/host/api-keys/revoke', { id }));
    if (left) setKeys(left);
    if (created?.id === id) setCreated(null);
  }

  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">{t.apiKeys}</h1>
      <p className="text-slate-700">{t.apiKeysLead}</p>
      {keys && (
        <dl className="card text-sm">
          <dt className="text-slate-600">{t.baseUrl}</dt>
          {keys.base_urls.map((url) => (
            <dd key={url} className="font-mono" dir="ltr">
              {url}
            </dd>
          ))}
        </dl>
      )}
      <form className="card flex flex-wrap items-end gap-3" onSubmit={(e) => void create(e)}>
        <label className="flex-1 text-sm">
          <span className="block">{t.keyName}</span>
          <input className="field" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        </label>
        <button type="submit" className="button" disabled={busy || name.trim() === ''}>
          {t.createKey}
        </button>
      </form>
      {created && (
        <section role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4">
          <p className="text-sm">{t.keyCreated}</p>
          <div className="flex items-center gap-2">
            <code className="flex-1 break-all rounded bg-white p-2 text-sm" dir="ltr" data-testid="new-key">
              {created.key}
            </code>
            <button
              type="button"
              className="button-quiet"
              onClick={() => void navigator.clipboard.writeText(created.key).then(() => setCopied(true))}
            >
              {copied ? t.copied : t.copy}
            </button>
          </div>
        </section>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {refusalText(t, error)}
        </p>
      )}
      {keys &&
        (keys.keys.length === 0 ? (
          <p className="text-slate-600">{t.noKeys}</p>
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-start text-slate-600">
                <th className="py-2 text-start font-normal">{t.keyName}</th>
                <th className="py-2 text-start font-normal">{t.created}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.keys.map((key) => (
                <tr key={key.id} className="border-t border-slate-200">
                  <td className="py-2">
                    {key.name}{' '}
                    <span className="font-mono text-slate-500" dir="ltr">
                      {key.prefix}…
                    </span>
                  </td>
                  <td className="py-2">{time(key.created_at)}</td>
                  <td className="py-2 text-end">
                    <button type="button" className="button-danger" onClick={() => void revoke(key.id, key.name)}>
                      {t.revoke}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </div>
  );
}

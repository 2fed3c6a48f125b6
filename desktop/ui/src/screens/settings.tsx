import { useEffect, useState } from 'react';
import type { HostState } from '@meshwork/contracts';
import { command } from '../host-client';
import { fill, type Language, LANGUAGES, useI18n } from '../i18n';
import { refusalText } from '../messages';
import { desktopShell } from '../shell';
import { useAction } from './use-action';

export function LanguagePicker() {
  const { t, language, setLanguage } = useI18n();
  return (
    <label className="text-sm">
      <span className="block">{t.language}</span>
      <select className="field" value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
        {Object.entries(LANGUAGES).map(([code, { name }]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Language, the device's account and version; signing out ends this device's sign-in. */
export function SettingsScreen({ state }: { state: HostState }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction();
  const account = state.account.status === 'signed-in' ? state.account : null;
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-2xl font-semibold">{t.settings}</h1>
      <section className="card space-y-4">
        <LanguagePicker />
        <StartAtLogin />
      </section>
      <section className="card space-y-3">
        <h2 className="font-medium">{t.account}</h2>
        {account && <p className="text-sm">{fill(t.signedInAs, { name: account.device_name, api: account.api })}</p>}
        <button type="button" className="button-danger" disabled={busy} onClick={() => void run(() => command('/host/sign-out'))}>
          {t.signOut}
        </button>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {refusalText(t, error)}
          </p>
        )}
      </section>
      <p className="text-sm text-slate-500">{fill(t.version, { version: state.version })}</p>
    </div>
  );
}

/** Only in the desktop app's window: whether Meshwork starts when the person logs in. */
function StartAtLogin() {
  const { t } = useI18n();
  const shell = desktopShell();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  useEffect(() => {
    void shell?.getStartAtLogin().then(setEnabled);
  }, [shell]);
  if (!shell || enabled === null) return null;
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={enabled} onChange={(e) => void shell.setStartAtLogin(e.target.checked).then(setEnabled)} />
      {t.startAtLogin}
    </label>
  );
}

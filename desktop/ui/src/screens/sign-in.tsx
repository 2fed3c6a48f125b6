import { type FormEvent, useState } from 'react';
import type { HostAccount } from '@meshwork/contracts';
import { command } from '../host-client';
import { fill, useI18n } from '../i18n';
import { refusalText, signedOutText } from '../messages';
import { LanguagePicker } from './settings';
import { useAction } from './use-action';

/** Sign-in: the device code flow first (the person approves it on the site), email and password as a fallback. */
export function SignInScreen({ account }: { account: Exclude<HostAccount, { status: 'signed-in' }> }) {
  const { t, time } = useI18n();
  const device = useAction();
  return (
    <main className="mx-auto max-w-lg space-y-6 p-8">
      <div className="flex items-start justify-between gap-4">
        <h1 className="text-2xl font-semibold">{t.signInTitle}</h1>
        <LanguagePicker />
      </div>
      <p className="text-slate-700">{t.signInLead}</p>
      {account.status === 'signed-out' && account.message && (
        <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          {signedOutText(t, account.message)}
        </p>
      )}
      <section className="card space-y-4">
        {account.status === 'signing-in' ? (
          <>
            <p>{t.enterCode}</p>
            <p className="font-mono text-3xl tracking-widest" data-testid="user-code">
              {account.user_code}
            </p>
            <p className="text-sm text-slate-600">{fill(t.codeExpires, { time: time(account.expires_at) })}</p>
            <div className="flex gap-3">
              <a className="button" href={account.verification_uri_complete} target="_blank" rel="noreferrer">
                {t.openActivate}
              </a>
              <button type="button" className="button-quiet" onClick={() => void device.run(() => command('/host/sign-in/cancel'))}>
                {t.cancel}
              </button>
            </div>
          </>
        ) : (
          <button
            type="button"
            className="button"
            disabled={device.busy}
            onClick={() => void device.run(() => command('/host/sign-in/device'))}
          >
            {t.signInWithBrowser}
          </button>
        )}
        {device.error && (
          <p role="alert" className="text-sm text-red-700">
            {refusalText(t, device.error)}
          </p>
        )}
      </section>
      <PasswordSignIn />
    </main>
  );
}

function PasswordSignIn() {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  function submit(event: FormEvent) {
    event.preventDefault();
    void run(() => command('/host/sign-in/password', { email, password }));
  }
  const fieldError = (name: string) => error?.errors[name]?.[0];
  return (
    <form className="card space-y-4" onSubmit={submit} noValidate>
      <h2 className="font-medium">{t.orPassword}</h2>
      <Field label={t.email} type="email" autoComplete="username" value={email} onChange={setEmail} error={fieldError('email')} />
      <Field
        label={t.password}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={fieldError('password')}
      />
      {error && Object.keys(error.errors).length === 0 && (
        <p role="alert" className="text-sm text-red-700">
          {refusalText(t, error)}
        </p>
      )}
      <button type="submit" className="button" disabled={busy}>
        {busy ? t.signingIn : t.signIn}
      </button>
    </form>
  );
}

/** A labelled input with the host's words about it beneath, when it refused the value. */
function Field(props: { label: string; type: string; autoComplete: string; value: string; onChange(value: string): void; error?: string }) {
  return (
    <label className="block space-y-1 text-sm">
      <span>{props.label}</span>
      <input
        className="field"
        type={props.type}
        autoComplete={props.autoComplete}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
      />
      {props.error && <span className="text-red-700">{props.error}</span>}
    </label>
  );
}

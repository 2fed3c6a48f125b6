import { useEffect, useState } from 'react';
import type { HostState } from '@meshwork/contracts';
import { useHostState } from './host-client';
import { useI18n } from './i18n';
import { ApiKeysScreen } from './screens/api-keys';
import { ChatScreen } from './screens/chat';
import { ModelsScreen } from './screens/models';
import { NetworkScreen } from './screens/network/network-screen';
import { OverviewScreen } from './screens/overview';
import { SettingsScreen } from './screens/settings';
import { SignInScreen } from './screens/sign-in';

const SECTIONS = ['overview', 'models', 'network', 'chat', 'apiKeys', 'settings'] as const;
type Section = (typeof SECTIONS)[number];
const sectionInAddress = (): Section => SECTIONS.find((name) => `#${name}` === window.location.hash) ?? 'overview';

/** The host's window: sign-in until the device is signed in, then its sections. */
export function App() {
  const { t } = useI18n();
  const { state, lost } = useHostState();
  if (lost) return <Notice text={t.lostHost} role="alert" />;
  if (!state) return <Notice text={t.loading} role="status" />;
  if (state.account.status !== 'signed-in') return <SignInScreen account={state.account} />;
  return <SignedIn state={state} />;
}

function Notice({ text, role }: { text: string; role: 'alert' | 'status' }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-8">
      <p role={role} className="max-w-md text-center text-slate-700">
        {text}
      </p>
    </main>
  );
}

function SignedIn({ state }: { state: HostState }) {
  const { t } = useI18n();
  // The section is in the address (#models), so a reload stays on it.
  const [section, setSection] = useState<Section>(sectionInAddress);
  useEffect(() => {
    const follow = () => setSection(sectionInAddress());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return (
    <div className="flex min-h-screen">
      <nav aria-label={t.appName} className="w-52 shrink-0 border-e border-slate-200 bg-white p-4">
        <p className="mb-6 text-lg font-semibold text-sky-800">{t.appName}</p>
        <ul className="space-y-1">
          {SECTIONS.map((name) => (
            <li key={name}>
              <button
                type="button"
                aria-current={section === name ? 'page' : undefined}
                onClick={() => (window.location.hash = name)}
                className="w-full rounded-md px-3 py-2 text-start text-sm hover:bg-slate-100 aria-[current=page]:bg-sky-50 aria-[current=page]:font-semibold aria-[current=page]:text-sky-800"
              >
                {t[name]}
              </button>
            </li>
          ))}
        </ul>
        <ConnectionBadge state={state} />
      </nav>
      <main className="min-w-0 flex-1 p-8">
        {section === 'overview' && <OverviewScreen state={state} />}
        {section === 'models' && <ModelsScreen state={state} />}
        {section === 'network' && <NetworkScreen state={state} />}
        {section === 'chat' && <ChatScreen state={state} />}
        {section === 'apiKeys' && <ApiKeysScreen />}
        {section === 'settings' && <SettingsScreen state={state} />}
      </main>
    </div>
  );
}

function ConnectionBadge({ state }: { state: HostState }) {
  const { t } = useI18n();
  const colour = { online: 'bg-emerald-500', connecting: 'bg-amber-400', offline: 'bg-slate-400' }[state.connection];
  return (
    <p className="mt-8 flex items-center gap-2 text-sm text-slate-600" data-testid="connection">
      <span aria-hidden="true" className={`inline-block size-2 rounded-full ${colour}`} />
      {t[state.connection]}
    </p>
  );
}

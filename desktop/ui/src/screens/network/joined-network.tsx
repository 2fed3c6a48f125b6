import type { HostNetwork } from '@meshwork/contracts';
import { command } from '../../host-client';
import { fill, useI18n } from '../../i18n';
import { refusalText } from '../../messages';
import { useAction } from '../use-action';
import { Members } from './members';
import { ErrorMessage, NetworkSummary } from './network-parts';

/** This device is a client: whether it reaches its host, and the members as the host reports them. */
export function JoinedNetwork({ network, deviceId }: { network: HostNetwork; deviceId: string | null }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction();
  function leave() {
    if (!window.confirm(fill(t.confirmLeave, { name: network.name }))) return;
    void run(() => command('/host/network/leave'));
  }
  return (
    <>
      <NetworkSummary network={network}>
        <p className="flex items-center gap-2 text-sm" data-testid="host-connection">
          <span
            aria-hidden="true"
            className={`inline-block size-2 rounded-full ${network.connected ? 'bg-emerald-500' : 'bg-slate-400'}`}
          />
          {network.connected ? t.connectedToHost : t.notConnectedToHost}
        </p>
      </NetworkSummary>
      <section className="card space-y-3" aria-labelledby="members-heading">
        <h2 id="members-heading" className="font-medium">
          {t.devices}
        </h2>
        <Members network={network} deviceId={deviceId} busy={busy} />
      </section>
      <ErrorMessage message={error ? refusalText(t, error) : undefined} />
      <button type="button" className="button-danger" disabled={busy} onClick={leave}>
        {t.leaveNetwork}
      </button>
    </>
  );
}

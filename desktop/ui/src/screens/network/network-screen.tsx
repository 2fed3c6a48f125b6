import type { HostState } from '@meshwork/contracts';
import { useI18n } from '../../i18n';
import { HostedNetwork } from './hosted-network';
import { JoinedNetwork } from './joined-network';
import { NoNetwork } from './no-network';

/**
 * The LAN network this device hosts or belongs to: none yet (create one, or join one found on
 * the LAN with its code), the host's view (join code, clients, who holds which blocks), or a
 * client's.
 */
export function NetworkScreen({ state }: { state: HostState }) {
  const { t } = useI18n();
  const network = state.network;
  const deviceId = state.account.status === 'signed-in' ? state.account.device_id : null;
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-2xl font-semibold">{t.network}</h1>
      {network === null ? (
        <NoNetwork state={state} />
      ) : network.role === 'host' ? (
        <HostedNetwork network={network} deviceId={deviceId} />
      ) : (
        <JoinedNetwork network={network} deviceId={deviceId} />
      )}
    </div>
  );
}

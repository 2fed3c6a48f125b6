import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { usePlanInfo } from '../../../shared/billing/api/get-plan-info';
import { LoadFailureScreen } from '../../../shared/errors/load-failure-screen';
import { formatLimit } from '../../../shared/format/billing-format';
import { notifyFailure } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { PageSpinner } from '../../../shared/ui/spinner';
import { useDevices } from '../api/get-devices';
import { useNetworks } from '../api/get-networks';
import { CreateNetworkDialog } from './create-network-dialog';
import { DevicesSection } from './devices-section';
import { KeepNetworksDialog } from './keep-networks-dialog';
import { NetworkCard } from './network-card';
import { usedOf } from './network-format';
import { NetworksEmptyState } from './networks-empty-state';

const LOAD_FAILED = 'Failed to load your networks';

/** /networks: the customer's networks within the plan's limits, and the devices that host and join them. */
export function NetworksPage() {
  const networks = useNetworks();
  const devices = useDevices();
  const planInfo = usePlanInfo({ enabled: true });
  const [dialog, setDialog] = useState<'create' | 'keep' | null>(null);
  const loadError = networks.error ?? devices.error;

  useEffect(() => {
    if (loadError) notifyFailure(LOAD_FAILED, loadError);
  }, [loadError]);

  const models = planInfo.data?.available_models ?? [];
  const list = networks.data;
  const suspended = list?.networks.filter((n) => n.status === 'suspended') ?? [];

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <header className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Networks</h1>
          {list && (
            <p className="mt-2 text-slate-600 dark:text-slate-400">
              {usedOf(list.limits.used, list.limits.max_networks)} networks · clients {formatLimit(list.limits.max_clients_per_network)} per
              network
            </p>
          )}
        </div>
        {list && list.networks.length > 0 && (
          <Button onClick={() => setDialog('create')}>
            <Plus className="size-4" aria-hidden /> Create Network
          </Button>
        )}
      </header>

      {loadError && (
        <LoadFailureScreen
          error={loadError}
          onRetry={() => Promise.all([networks.refetch(), devices.refetch()])}
          retrying={networks.isFetching || devices.isFetching}
        />
      )}
      {!loadError && (!list || !devices.data) && <PageSpinner />}
      {list && devices.data && (
        <div className="space-y-8">
          {suspended.length > 0 && (
            <div
              role="status"
              className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
            >
              <p>
                {suspended.length} network{suspended.length === 1 ? ' is' : 's are'} suspended. Nothing was deleted: choose which to keep
                running, or upgrade your plan.
              </p>
              <Button variant="secondary" size="sm" onClick={() => setDialog('keep')}>
                Choose Networks to Keep
              </Button>
            </div>
          )}
          {list.networks.length === 0 ? (
            <NetworksEmptyState onCreate={() => setDialog('create')} />
          ) : (
            <section aria-label="Your networks" className="space-y-6">
              {list.networks.map((network) => (
                <NetworkCard
                  key={network.id}
                  network={network}
                  devices={devices.data.devices}
                  models={models}
                  maxClients={list.limits.max_clients_per_network}
                />
              ))}
            </section>
          )}
          <DevicesSection devices={devices.data.devices} />
        </div>
      )}
      {dialog === 'create' && <CreateNetworkDialog models={models} onClose={() => setDialog(null)} />}
      {dialog === 'keep' && list && (
        <KeepNetworksDialog networks={list.networks} maxNetworks={list.limits.max_networks} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}

import type { HostState } from '@meshwork/contracts';
import { fill, useI18n } from '../i18n';
import { servingReasonText, trustProblemText } from '../messages';

/** The plan on this device, whether it is served, how long it lasts offline, and its networks (and the one this device is in). */
export function OverviewScreen({ state }: { state: HostState }) {
  const { t, duration, number } = useI18n();
  const entitlements = state.entitlements;
  const left = duration(entitlements?.seconds_left ?? 0);
  const standing =
    entitlements?.status === 'in-grace'
      ? fill(t.entitlementInGrace, { left })
      : state.connection === 'online'
        ? t.entitlementValid
        : fill(t.entitlementValidOffline, { left });
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">{t.overview}</h1>
      {entitlements && (
        <section className="card space-y-2" aria-labelledby="plan-heading">
          <h2 id="plan-heading" className="text-sm text-slate-600">
            {t.plan}
          </h2>
          <p className="text-xl font-semibold" data-testid="plan-name">
            {entitlements.plan.name}
          </p>
          {state.serving.allowed && <p data-testid="standing">{standing}</p>}
          {state.account.status === 'signed-in' && (
            <p className="text-sm text-slate-600">
              {t.device}: {state.account.device_name}
            </p>
          )}
          {/* Where this device's trust in its plan comes from: whoever can edit its data folder can replace pinned keys. */}
          <p className="text-sm text-slate-600" data-testid="trust-source">
            {t.trustSource[state.trust.source]}
          </p>
          {state.trust.problem && (
            <p className="text-sm text-red-700" data-testid="trust-problem">
              {fill(t.trustProblem, { problem: trustProblemText(t, state.trust.problem) })}
            </p>
          )}
        </section>
      )}
      {state.serving.reason && (
        <section role="alert" className="rounded-lg border border-red-200 bg-red-50 p-5 text-red-900">
          <h2 className="font-semibold">{t.servingStopped}</h2>
          <p>{servingReasonText(t, state.serving.reason)}</p>
        </section>
      )}
      <section className="card space-y-3" aria-labelledby="networks-heading">
        <h2 id="networks-heading" className="font-medium">
          {t.networks}
        </h2>
        {state.network && (
          <p className="flex flex-wrap items-baseline gap-x-3 text-sm" data-testid="device-network">
            <span>{fill(state.network.role === 'host' ? t.deviceHostsNetwork : t.deviceInNetwork, { name: state.network.name })}</span>
            <a href="#network" className="font-medium text-sky-800 underline">
              {t.openNetwork}
            </a>
          </p>
        )}
        {entitlements && entitlements.networks.length > 0 ? (
          <ul className="divide-y divide-slate-100">
            {entitlements.networks.map((network) => (
              <li key={network.id} className="flex flex-wrap gap-x-4 py-2 text-sm">
                <span className="font-medium">{network.name}</span>
                <span>{t.networkRole[network.role]}</span>
                <span>{network.model}</span>
                <span>
                  {network.max_clients === null ? t.unlimitedClients : fill(t.clientsAllowed, { count: number(network.max_clients) })}
                </span>
                {network.status === 'suspended' && <span className="text-red-700">{t.networkSuspended}</span>}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">{t.noNetworks}</p>
        )}
      </section>
    </div>
  );
}

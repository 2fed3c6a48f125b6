import type { ReactNode } from 'react';
import type { HostNetwork } from '@meshwork/contracts';
import { useI18n } from '../../i18n';
import { networkMessageText } from '../../messages';
import { MemoryShortNotice } from './memory-short';

// Pieces the states of the Network section share: a refusal, a certificate, the network's summary.

export function ErrorMessage({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}

/**
 * A host's TLS certificate as people compare it between two windows: the first 80 bits of its
 * SHA-256 in groups of four (the whole one on hover).
 */
export function Certificate({ fingerprint }: { fingerprint: string | null }) {
  const { t } = useI18n();
  if (fingerprint === null) return null;
  return (
    <p className="text-sm text-slate-600">
      {t.hostCertificate}:{' '}
      <span className="font-mono" dir="ltr" title={fingerprint} data-testid="host-certificate">
        {fingerprint.slice(0, 20).match(/.{4}/g)!.join(' ')}
      </span>
    </p>
  );
}

/** The network's name, model and standing, as both the host and its clients see it. */
export function NetworkSummary({ network, children }: { network: HostNetwork; children?: ReactNode }) {
  const i18n = useI18n();
  const { t } = i18n;
  return (
    <section className="card space-y-3" aria-labelledby="network-name">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="network-name" className="text-xl font-semibold" data-testid="network-name">
          {network.name}
        </h2>
        <span
          data-testid="network-status"
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${
            network.status === 'active' ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'
          }`}
        >
          {t.networkStatus[network.status]}
        </span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">{t.model}</dt>
        <dd>{network.model}</dd>
        <dt className="text-slate-600">{t.device}</dt>
        <dd>{network.role === 'host' ? t.youHost : t.youAreClient}</dd>
      </dl>
      <Certificate fingerprint={network.certificate_sha256} />
      {children}
      {network.message?.code === 'memory_short' && <MemoryShortNotice message={network.message} />}
      {network.message && network.message.code !== 'memory_short' && (
        <p
          role="status"
          data-testid="network-message"
          className={`rounded-md p-3 text-sm ${network.status === 'suspended' ? 'bg-red-50 text-red-900' : 'bg-amber-50 text-amber-900'}`}
        >
          {networkMessageText(t, network.message, i18n)}
        </p>
      )}
    </section>
  );
}

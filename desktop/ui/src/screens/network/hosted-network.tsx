import { useEffect, useState } from 'react';
import type { HostNetwork, HostNetworkMember } from '@meshwork/contracts';
import { command } from '../../host-client';
import { fill, useI18n } from '../../i18n';
import { refusalText } from '../../messages';
import { useAction } from '../use-action';
import { Members } from './members';
import { ErrorMessage, NetworkSummary } from './network-parts';

/** This device hosts the network: its join code, its clients and who runs which blocks. */
export function HostedNetwork({ network, deviceId }: { network: HostNetwork; deviceId: string | null }) {
  const { t, number } = useI18n();
  const { busy, error, run } = useAction();
  const clients = network.members.filter((member) => member.role === 'client').length;

  function stopHosting() {
    if (!window.confirm(fill(t.confirmStopHosting, { name: network.name }))) return;
    void run(() => command('/host/network/leave'));
  }
  function removeMember(member: HostNetworkMember) {
    if (!window.confirm(fill(t.confirmRemoveMember, { name: member.name }))) return;
    void run(() => command('/host/network/remove-member', { device_id: member.device_id }));
  }

  return (
    <>
      <NetworkSummary network={network} />
      <JoinCode network={network} busy={busy} onNewCode={() => void run(() => command('/host/network/join-code'))} />
      <section className="card space-y-3" aria-labelledby="members-heading">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="members-heading" className="font-medium">
            {t.devices}
          </h2>
          <p className="text-sm text-slate-600" data-testid="client-count">
            {network.max_clients === null
              ? fill(t.clientCountUnlimited, { count: number(clients) })
              : fill(t.clientCount, { count: number(clients), max: number(network.max_clients) })}
          </p>
        </div>
        <Members network={network} deviceId={deviceId} onRemove={removeMember} busy={busy} />
      </section>
      <ErrorMessage message={error ? refusalText(t, error) : undefined} />
      <button type="button" className="button-danger" disabled={busy} onClick={stopHosting}>
        {t.stopHosting}
      </button>
    </>
  );
}

/** Seconds from now until `iso`, ticking every second. */
function useSecondsUntil(iso: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (iso === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [iso]);
  return iso === null ? 0 : Math.max(0, Math.floor((Date.parse(iso) - now) / 1000));
}

function JoinCode({ network, busy, onNewCode }: { network: HostNetwork; busy: boolean; onNewCode(): void }) {
  const { t, number } = useI18n();
  const code = network.join_code;
  const left = useSecondsUntil(code?.expires_at ?? null);
  const [copied, setCopied] = useState<string | null>(null);
  const two = (value: number) => number(value, { minimumIntegerDigits: 2, useGrouping: false });
  const hours = Math.floor(left / 3600);
  const clock =
    hours > 0
      ? `${number(hours)}:${two(Math.floor((left % 3600) / 60))}:${two(left % 60)}`
      : `${number(Math.floor(left / 60))}:${two(left % 60)}`;
  const live = code !== null && left > 0;
  return (
    <section className="card space-y-3" aria-labelledby="join-code-heading">
      <h2 id="join-code-heading" className="font-medium">
        {t.joinCode}
      </h2>
      {live ? (
        <>
          <p className="text-sm text-slate-600">{t.joinCodeLead}</p>
          <div className="flex flex-wrap items-center gap-4">
            <p className="font-mono text-4xl font-semibold tracking-widest" dir="ltr" data-testid="join-code">
              {code.code}
            </p>
            <button
              type="button"
              className="button-quiet"
              onClick={() => void navigator.clipboard.writeText(code.code).then(() => setCopied(code.code))}
            >
              {copied === code.code ? t.copied : t.copy}
            </button>
          </div>
          <p className="text-sm text-slate-600" data-testid="join-code-expiry">
            {fill(t.codeExpiresIn, { left: `\u2066${clock}\u2069` })}
          </p>
        </>
      ) : (
        <p className="text-sm text-slate-600">{code === null ? t.noJoinCode : t.codeExpired}</p>
      )}
      <button type="button" className="button-quiet" disabled={busy} onClick={onNewCode}>
        {t.newCode}
      </button>
    </section>
  );
}

import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { DiscoveredNetwork, HostNetwork, HostNetworkMember, HostState } from '@meshwork/contracts';
import { command } from '../host-client';
import { fill, useI18n } from '../i18n';
import { useAction } from './use-action';

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
        <>
          <p className="text-slate-700">{t.networkLead}</p>
          <CreateNetwork state={state} />
          <JoinNetwork discovered={state.discovered} />
        </>
      ) : network.role === 'host' ? (
        <HostedNetwork network={network} deviceId={deviceId} />
      ) : (
        <JoinedNetwork network={network} deviceId={deviceId} />
      )}
    </div>
  );
}

function ErrorMessage({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}

/** Name and model: this device creates the network and hosts it. */
function CreateNetwork({ state }: { state: HostState }) {
  const { t } = useI18n();
  const installed = state.models.filter((model) => model.allowed && model.status === 'installed');
  const [name, setName] = useState('');
  const [model, setModel] = useState('');
  const { busy, error, run } = useAction();
  const chosen = installed.some((m) => m.name === model) ? model : (installed[0]?.name ?? '');
  const fieldError = (field: string) => error?.errors[field]?.[0];

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(() => command('/host/network/create', { name: name.trim(), model: chosen }));
  }

  return (
    <section className="card space-y-4" aria-labelledby="create-network-heading">
      <div className="space-y-1">
        <h2 id="create-network-heading" className="font-medium">
          {t.createNetwork}
        </h2>
        <p className="text-sm text-slate-600">{t.createNetworkLead}</p>
      </div>
      {installed.length === 0 ? (
        <p className="text-sm">
          {t.needInstalledModel}{' '}
          <a href="#models" className="font-medium text-sky-800 underline">
            {t.goToModels}
          </a>
        </p>
      ) : (
        <form className="space-y-4" onSubmit={submit} noValidate>
          <div className="flex flex-wrap gap-4">
            <label className="min-w-56 flex-1 space-y-1 text-sm">
              <span className="block">{t.networkName}</span>
              <input
                className="field"
                value={name}
                maxLength={100}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={fieldError('name') ? true : undefined}
              />
              {fieldError('name') && <span className="text-red-700">{fieldError('name')}</span>}
            </label>
            <label className="min-w-56 flex-1 space-y-1 text-sm">
              <span className="block">{t.model}</span>
              <select
                className="field"
                value={chosen}
                onChange={(e) => setModel(e.target.value)}
                aria-invalid={fieldError('model') ? true : undefined}
              >
                {installed.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.display_name}
                  </option>
                ))}
              </select>
              {fieldError('model') && <span className="text-red-700">{fieldError('model')}</span>}
            </label>
          </div>
          <ErrorMessage message={error && Object.keys(error.errors).length === 0 ? error.message : undefined} />
          <button type="submit" className="button" disabled={busy || name.trim() === '' || chosen === ''}>
            {t.createNetworkButton}
          </button>
        </form>
      )}
    </section>
  );
}

/** The customer's networks announced on this LAN, each joined with the code its host shows. */
function JoinNetwork({ discovered }: { discovered: DiscoveredNetwork[] }) {
  const { t } = useI18n();
  return (
    <section className="card space-y-4" aria-labelledby="join-network-heading">
      <div className="space-y-1">
        <h2 id="join-network-heading" className="font-medium">
          {t.joinNetwork}
        </h2>
        {discovered.length > 0 && <p className="text-sm text-slate-600">{t.joinLead}</p>}
      </div>
      {discovered.length === 0 ? (
        <p role="status" className="text-sm text-slate-600">
          {t.lookingForNetworks}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {discovered.map((network) => (
            <DiscoveredRow key={`${network.id}/${network.certificate_sha256}`} network={network} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DiscoveredRow({ network }: { network: DiscoveredNetwork }) {
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const { busy, error, run } = useAction();
  function submit(event: FormEvent) {
    event.preventDefault();
    void run(() =>
      command('/host/network/join', { network_id: network.id, certificate_sha256: network.certificate_sha256, code: code.trim() }),
    );
  }
  return (
    <li className="space-y-2 py-3" aria-label={network.name}>
      <div>
        <p className="font-medium">{network.name}</p>
        <p className="text-sm text-slate-600">
          {network.model} ·{' '}
          {fill(t.hostedBy, {
            host: network.host_name,
            address: `\u2066${network.address}\u2069`,
          })}
        </p>
        <Certificate fingerprint={network.certificate_sha256} />
        <p className={`text-sm ${network.verified ? 'text-emerald-800' : 'text-amber-800'}`} data-testid="host-verified">
          {network.verified ? t.knownHost : t.unknownHost}
        </p>
      </div>
      <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <label className="space-y-1 text-sm">
          <span className="block">{t.joinCode}</span>
          <input
            className="field w-44 font-mono tracking-widest"
            dir="ltr"
            value={code}
            placeholder="XXXX-XXXX"
            maxLength={20}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
            aria-invalid={error?.errors.code ? true : undefined}
          />
        </label>
        <button type="submit" className="button" disabled={busy || code.trim() === ''}>
          {t.join}
        </button>
      </form>
      <ErrorMessage message={error?.errors.code?.[0] ?? error?.message} />
    </li>
  );
}

/**
 * A host's TLS certificate as people compare it between two windows: the first 80 bits of its
 * SHA-256 in groups of four (the whole one on hover).
 */
function Certificate({ fingerprint }: { fingerprint: string | null }) {
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
function NetworkSummary({ network, children }: { network: HostNetwork; children?: ReactNode }) {
  const { t } = useI18n();
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
      {network.message && (
        <p
          role="status"
          data-testid="network-message"
          className={`rounded-md p-3 text-sm ${network.status === 'suspended' ? 'bg-red-50 text-red-900' : 'bg-amber-50 text-amber-900'}`}
        >
          {network.message}
        </p>
      )}
    </section>
  );
}

/** This device hosts the network: its join code, its clients and who runs which blocks. */
function HostedNetwork({ network, deviceId }: { network: HostNetwork; deviceId: string | null }) {
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
      <ErrorMessage message={error?.message} />
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

/** This device is a client: whether it reaches its host, and the members as the host reports them. */
function JoinedNetwork({ network, deviceId }: { network: HostNetwork; deviceId: string | null }) {
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
      <ErrorMessage message={error?.message} />
      <button type="button" className="button-danger" disabled={busy} onClick={leave}>
        {t.leaveNetwork}
      </button>
    </>
  );
}

/** `[0, 1, 2, 5]` as "0–2, 5", in the language's digits. */
function useBlocks() {
  const { t, number } = useI18n();
  return (blocks: number[]): string => {
    if (blocks.length === 0) return t.blocksNone;
    const sorted = [...new Set(blocks)].sort((a, b) => a - b);
    const runs: [number, number][] = [];
    for (const block of sorted) {
      const last = runs.at(-1);
      if (last && block === last[1] + 1) last[1] = block;
      else runs.push([block, block]);
    }
    const list = runs.map(([from, to]) => (from === to ? number(from) : `${number(from)}–${number(to)}`)).join(t.listSeparator);
    return fill(sorted.length === 1 ? t.blocksOne : t.blocksMany, { list });
  };
}

function Members(props: { network: HostNetwork; deviceId: string | null; busy: boolean; onRemove?(member: HostNetworkMember): void }) {
  const { t, bytes, number } = useI18n();
  const blocks = useBlocks();
  const { onRemove } = props;
  // The host first, then clients in the order they joined.
  const members = [...props.network.members].sort(
    (a, b) => Number(b.role === 'host') - Number(a.role === 'host') || a.joined_at.localeCompare(b.joined_at),
  );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-slate-600">
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberDevice}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberRoleHeading}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberConnection}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberBlocks}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.freeMemory}
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-normal">
              {t.memberSpeed}
            </th>
            {onRemove && (
              <th scope="col" className="py-2">
                <span className="sr-only">{t.actions}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.device_id} className="border-t border-slate-200">
              <th scope="row" className="py-2 pe-3 text-start font-medium">
                {member.name}
                {member.device_id === props.deviceId && (
                  <>
                    {' '}
                    <span className="font-normal text-slate-500">{t.thisDeviceMark}</span>
                  </>
                )}
              </th>
              <td className="py-2 pe-3">{t.memberRole[member.role]}</td>
              <td className="py-2 pe-3" data-testid="member-connection">
                <span className="flex items-center gap-2">
                  <span
                    aria-hidden="true"
                    className={`inline-block size-2 rounded-full ${member.online ? 'bg-emerald-500' : 'bg-slate-400'}`}
                  />
                  {member.online ? t.online : t.offline}
                </span>
              </td>
              <td className="py-2 pe-3" data-testid="member-blocks">
                {blocks(member.blocks)}
              </td>
              <td className="py-2 pe-3">{bytes(member.free_memory_bytes)}</td>
              <td className="py-2 pe-3">{member.speed > 0 ? number(member.speed, { maximumFractionDigits: 1 }) : t.notMeasured}</td>
              {onRemove && (
                <td className="py-2 text-end">
                  {member.role === 'client' && (
                    <button
                      type="button"
                      className="button-danger"
                      disabled={props.busy}
                      aria-label={fill(t.removeMember, { name: member.name })}
                      onClick={() => onRemove(member)}
                    >
                      {t.remove}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

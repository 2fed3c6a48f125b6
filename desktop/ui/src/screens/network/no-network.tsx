import { type FormEvent, useState } from 'react';
import type { DiscoveredNetwork, HostState } from '@meshwork/contracts';
import { command } from '../../host-client';
import { fill, useI18n } from '../../i18n';
import { lanRemovalText, refusalText } from '../../messages';
import { useAction } from '../use-action';
import { Certificate, ErrorMessage } from './network-parts';

/**
 * This device is in no network: why, when its host took it out, then create one, or join one
 * found on the LAN with its code.
 */
export function NoNetwork({ state }: { state: HostState }) {
  const { t } = useI18n();
  const left = state.left_network;
  return (
    <>
      {left && (
        <p role="status" data-testid="left-network" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950">
          {/* The network's name is the person's own words, in any script: isolated so it keeps its own direction. */}
          {fill(t.leftNetwork, { name: `\u2068${left.name}\u2069`, reason: lanRemovalText(t, left.reason) })}
        </p>
      )}
      <p className="text-slate-700">{t.networkLead}</p>
      <CreateNetwork state={state} />
      <JoinNetwork discovered={state.discovered} />
    </>
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
          <ErrorMessage message={error && Object.keys(error.errors).length === 0 ? refusalText(t, error) : undefined} />
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
      <ErrorMessage message={error?.errors.code?.[0] ?? (error ? refusalText(t, error) : undefined)} />
    </li>
  );
}

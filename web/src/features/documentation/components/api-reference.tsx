import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { CodeBlock } from './code-block';
import { DocSection } from './doc-section';

/**
 * A call an API token of any scope may make, against this very site (the api serves it), so
 * it works as printed once the token is pasted in.
 */
export const apiTokenRequest = (origin: string) => `export MESHWORK_API_TOKEN='mw_live_…'   # from Settings → API tokens
curl ${origin}/api/v1/users/dashboard/ \\
  -H "Authorization: Bearer $MESHWORK_API_TOKEN"`;

/** This site's origin once in the browser; the prerendered page (no window) names a placeholder host. */
const useSiteOrigin = () =>
  useSyncExternalStore(
    () => () => undefined,
    () => window.location.origin,
    () => 'https://your-meshwork-host',
  );

const planRequest = `curl https://your-meshwork-host/api/v1/account/plan/ \\
  -H "Authorization: Bearer $MESHWORK_API_TOKEN"`;

const networkRequest = `curl -X POST https://your-meshwork-host/api/v1/networks/create/ \\
  -H "Authorization: Bearer YOUR_ACCESS_TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "head-office", "model_id": "llama3_1_8b_fp16"}'`;

const deviceCodeRequest = `curl -X POST https://your-meshwork-host/api/v1/devices/code/ \\
  -d client_id=meshwork-desktop -d device_name=studio -d platform=linux \\
  -d app_version=1.0.0 -d hardware_fingerprint=YOUR_MACHINE_ID`;

const deviceTokenRequest = `curl -X POST https://your-meshwork-host/api/v1/devices/token/ \\
  -d grant_type=urn:ietf:params:oauth:grant-type:device_code \\
  -d device_code=DEVICE_CODE -d client_id=meshwork-desktop`;

/** The networks calls besides create, as the api serves them. */
const networkCalls: [string, string][] = [
  ['GET /api/v1/networks/', 'lists your networks, oldest first, with the limits in use.'],
  ['GET /api/v1/networks/{id}/', 'returns one network: model, status, host and clients.'],
  ['PATCH /api/v1/networks/{id}/', 'renames a network (send its new name).'],
  ['DELETE /api/v1/networks/{id}/', 'deletes a network.'],
  [
    'POST /api/v1/networks/keep/',
    'chooses which networks keep running (network_ids) when your plan allows fewer than you have; the others are suspended.',
  ],
  ['POST /api/v1/networks/{id}/host/', 'makes one of your active devices (device_id) the network’s host.'],
  ['DELETE /api/v1/networks/{id}/host/', 'releases the host; the clients stay and another host can be assigned.'],
  [
    'POST /api/v1/networks/{id}/join-code/',
    'gives a fresh join code (XXXX-XXXX, valid 15 minutes) for the host to show; from the site or the host device.',
  ],
  [
    'POST /api/v1/networks/join/',
    'joins the network whose host shows the code, from the joining device’s own session, up to your plan’s clients per network.',
  ],
  ['POST /api/v1/networks/{id}/leave/', 'the calling device leaves the network.'],
  ['DELETE /api/v1/networks/{id}/clients/{device_id}/', 'removes a client device from the network.'],
];

/** The bearer-token API of the Pro and Enterprise plans. */
export function ApiReference() {
  const origin = useSiteOrigin();
  return (
    <DocSection id="api-reference" title="API Reference">
      <p className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900 dark:border-brand-900 dark:bg-brand-950/60 dark:text-brand-100">
        API tokens are read-only on the <strong>Free</strong> plan and read-write on <strong>Pro</strong> and <strong>Enterprise</strong>,
        each with its plan&apos;s requests per minute.{' '}
        <Link to="/pricing" className="font-medium underline">
          Compare plans
        </Link>
        .
      </p>
      <h3 className="pt-2 text-lg font-semibold text-slate-900 dark:text-white">Authentication</h3>
      <p>
        Create an API token in{' '}
        <Link to="/settings/api" className="font-medium text-brand-600 underline dark:text-brand-400">
          Settings → API tokens
        </Link>{' '}
        and send it in the <code className="rounded bg-slate-100 px-1.5 py-0.5 text-sm dark:bg-slate-800">Authorization</code> header as a
        bearer token: <code className="text-sm">Bearer mw_live_…</code>. All paths are under{' '}
        <code className="rounded bg-slate-100 px-1.5 py-0.5 text-sm dark:bg-slate-800">/api/v1</code>. A read-only token may only read
        (GET); managing tokens, your password and your account need you signed in on this site. Every answer to a token carries{' '}
        <code className="text-sm">RateLimit-Limit</code>, <code className="text-sm">RateLimit-Remaining</code> and{' '}
        <code className="text-sm">RateLimit-Reset</code>; past the limit the answer is a 429 whose{' '}
        <code className="text-sm">Retry-After</code> says when to try again.
      </p>
      <CodeBlock label="Your dashboard, with an API token" code={apiTokenRequest(origin)} />
      <h3 className="pt-2 text-lg font-semibold text-slate-900 dark:text-white">Get your plan</h3>
      <p>
        <code className="text-sm">GET /api/v1/account/plan/</code> returns your plan, its limits and the models available to it.
      </p>
      <CodeBlock label="Request" code={planRequest} />
      <h3 className="pt-2 text-lg font-semibold text-slate-900 dark:text-white">Create a network</h3>
      <p>
        <code className="text-sm">POST /api/v1/networks/create/</code> with a <code className="text-sm">name</code> and the{' '}
        <code className="text-sm">model_id</code> the network should serve.
      </p>
      <CodeBlock label="Request" code={networkRequest} />
      <p>
        <code className="text-sm">model_id</code> is a model&apos;s name as your plan lists it. A plan allows a number of networks and of
        clients per network; a refusal answers 403 with a message saying which limit was reached.
      </p>
      <h3 className="pt-2 text-lg font-semibold text-slate-900 dark:text-white">Manage your networks</h3>
      <ul className="list-disc space-y-1 pl-6">
        {networkCalls.map(([call, what]) => (
          <li key={call}>
            <code className="text-sm">{call}</code> {what}
          </li>
        ))}
      </ul>
      <h3 className="pt-2 text-lg font-semibold text-slate-900 dark:text-white">Sign a device in</h3>
      <p>
        Desktop hosts sign in with the OAuth device authorization grant (RFC 8628).{' '}
        <code className="text-sm">POST /api/v1/devices/code/</code> answers a <code className="text-sm">device_code</code> and a{' '}
        <code className="text-sm">user_code</code>; you enter the user code at <code className="text-sm">/activate</code> while signed in,
        and the host polls <code className="text-sm">POST /api/v1/devices/token/</code> every <code className="text-sm">interval</code>{' '}
        seconds until it receives its access and refresh tokens. Until then the answer is a 400 with <code className="text-sm">error</code>{' '}
        <code className="text-sm">authorization_pending</code> (or <code className="text-sm">slow_down</code>,{' '}
        <code className="text-sm">expired_token</code>, <code className="text-sm">access_denied</code>). The same endpoint with{' '}
        <code className="text-sm">grant_type=refresh_token</code> gives the next pair.
      </p>
      <CodeBlock label="Request a code" code={deviceCodeRequest} />
      <CodeBlock label="Poll for the tokens" code={deviceTokenRequest} />
      <h3 className="pt-2 text-lg font-semibold text-slate-900 dark:text-white">Your devices</h3>
      <p>
        <code className="text-sm">GET /api/v1/devices/</code> lists your devices;{' '}
        <code className="text-sm">POST /api/v1/devices/&#123;id&#125;/rename/</code> with a <code className="text-sm">name</code> renames
        one and <code className="text-sm">POST /api/v1/devices/&#123;id&#125;/revoke/</code> signs it out for good, at once.
      </p>
      <p>
        A signed-in device gets what its plan allows from <code className="text-sm">GET /api/v1/devices/entitlements/</code>: a document
        signed with Ed25519 (JWS, <code className="text-sm">EdDSA</code>), to verify against the keys at{' '}
        <code className="text-sm">GET /api/v1/devices/keys/</code>.
      </p>
      <p>
        <code className="text-sm">GET /api/v1/devices/entitlements/stream</code> holds the document live (server-sent events): the current
        one as an <code className="text-sm">entitlements</code> event at once, a new one whenever your plan, its models or your networks
        change, and <code className="text-sm">revoked</code> before the stream closes when the device is revoked.
      </p>
    </DocSection>
  );
}

// stripe-mock: Stripe's official API mock (answers every endpoint from the
// OpenAPI spec with fixture data; stateless). Built with `go install`.
// It accepts any `sk_test_...` key, so STRIPE_SECRET_KEY is a made-up one.
import { credentials, host, ports } from './config.mjs';
import { goInstall } from './gotool.mjs';
import { spawnDetached } from './proc.mjs';

export const STRIPE_MOCK_MODULE = 'github.com/stripe/stripe-mock';
export const STRIPE_MOCK_VERSION = process.env.MESHWORK_STRIPE_MOCK_VERSION || 'v0.203.0';

let bin;

export default {
  name: 'stripe',
  marker: 'stripe-mock',
  stopSignal: 'SIGTERM',
  stopTimeoutMs: 10000,
  startTimeoutMs: 30000,
  ports: () => [ports.stripe, ports.stripeHttps],
  url: () => `http://${host}:${ports.stripe}`,
  external: () => null,

  async install() {
    bin = await goInstall('stripe-mock', STRIPE_MOCK_MODULE, STRIPE_MOCK_VERSION, { logName: 'stripe-install' });
  },

  launch() {
    return spawnDetached('stripe', bin, ['-http-addr', `${host}:${ports.stripe}`, '-https-addr', `${host}:${ports.stripeHttps}`], {
      marker: 'stripe-mock',
    });
  },

  /** Ready = an authenticated API call answers 200. */
  async probe() {
    const res = await fetch(`http://${host}:${ports.stripe}/v1/customers?limit=1`, {
      headers: { authorization: `Bearer ${credentials.stripeKey}` },
      signal: AbortSignal.timeout(2000),
    });
    return res.ok;
  },
};

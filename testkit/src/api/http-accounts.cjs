// Accounts over HTTP, against a listening api at `apiBase` (http://host:port/api/v1), as the
// site makes them: for the tests and benchmarks that run the api as a process of its own or a
// browser against it. CommonJS, like api-process.cjs, so the ESM benchmarks and the Jest
// (CommonJS) tests can both load it.

/** A JSON call as `token` (or none): POST with `body`, GET without; answers the parsed body, throws unless 2xx. */
async function callApi(apiBase, path, token, body) {
  const response = await fetch(`${apiBase}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Registers `username` (email `<username>@example.com`) with `password`; answers the AuthResponse. */
function registerOverHttp(apiBase, username, password) {
  return callApi(apiBase, '/register/', null, {
    email: `${username}@example.com`,
    username,
    password,
    password_confirm: password,
  });
}

/**
 * Subscribes the user to `planId` through the simulated checkout, as the site's plan dialog and
 * checkout page do; fails unless the plan is then `planId`.
 */
async function subscribeOverHttp(apiBase, accessToken, planId) {
  const created = await callApi(apiBase, '/subscriptions/create/', accessToken, {
    plan_id: planId,
    payment_method: 'stripe',
    billing_cycle: 'monthly',
  });
  const sessionId = String(created.payment_url).split('/').pop();
  await callApi(apiBase, `/subscriptions/simulated-checkout/${sessionId}/complete/`, accessToken, {});
  await callApi(apiBase, '/subscriptions/verify/', accessToken, { session_id: sessionId });
  const { plan } = await callApi(apiBase, '/plan/', accessToken);
  if (plan !== planId) throw new Error(`still on ${String(plan)} after the checkout`);
}

module.exports = { callApi, registerOverHttp, subscribeOverHttp };

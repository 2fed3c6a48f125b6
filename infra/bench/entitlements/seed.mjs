// Seeds customers, each with one signed-in desktop device, through the api's own calls.
//
// Registration and sign-in hash with argon2id at the product's cost: the api has no cheaper
// setting for benchmarks, on purpose. Each customer registers, then its desktop signs in with
// POST /login/ and its hardware fingerprint, which registers the device and opens its session
// (two hashes). The device authorization grant hashes once but takes three calls, each
// appending events; measured here at 100 customers, both cost the api ~31 ms of CPU per
// customer, so the simpler one is used.
const PASSWORD = 'Bench1Password';

/** POSTs JSON and answers the parsed body, throwing on any status but `expected`. */
async function post(base, path, body, expected) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status !== expected) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Customer `i`: registers, then signs its desktop in; answers the device's access token. */
async function seedOne(base, runId, i) {
  const name = `bench${runId}d${i}`;
  const email = `${name}@example.com`;
  await post(base, '/register/', { email, username: name, password: PASSWORD, password_confirm: PASSWORD }, 201);
  const signedIn = await post(base, '/login/', { email, password: PASSWORD, hardware_fingerprint: `bench-${runId}-${i}` }, 200);
  return { token: signedIn.tokens.access };
}

/**
 * `count` customers on the free plan with a signed-in device each, `concurrency` at a time
 * (argon2id runs on libuv's four threads: more in flight only queues). Answers the devices
 * in order and the seconds it took.
 */
export async function seedDevices(base, count, concurrency) {
  const runId = Date.now().toString(36);
  const devices = new Array(count);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        devices[i] = await seedOne(base, runId, i);
      }
    }),
  );
  return { devices, seconds: (performance.now() - started) / 1000 };
}

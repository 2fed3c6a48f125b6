// The baseline a licensing server offers (Keygen-style): every device asks for its plan on a
// timer. Each poll is a connection of its own, as from 2,000 separate machines (the api's
// keep-alive timeout is far shorter than the interval anyway).
import http from 'node:http';

const getPlan = (base, token) =>
  new Promise((resolve) => {
    const request = http.get(`${base}/plan/`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode === 200));
    });
    request.once('error', () => resolve(false));
  });

/**
 * Every device polls GET /plan/ every `intervalSeconds`, the devices' first polls spread
 * evenly over the first interval, for `seconds`. Resolves when the last poll has answered,
 * with the number of polls and of failures (anything but a 200).
 */
export async function pollPlans(base, devices, intervalSeconds, seconds) {
  const counts = { polls: 0, failures: 0 };
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const pending = [];
  await new Promise((done) => {
    let live = devices.length;
    // Device i polls at its offset, then every interval after it, while the window lasts.
    const schedule = (token, at) => {
      if (at >= seconds * 1000) {
        if (--live === 0) done();
        return;
      }
      setTimeout(
        () => {
          counts.polls++;
          pending.push(getPlan(base, token).then((ok) => (counts.failures += ok ? 0 : 1)));
          schedule(token, at + intervalSeconds * 1000);
        },
        Math.max(0, at - elapsed()),
      );
    };
    devices.forEach(({ token }, i) => schedule(token, (i * intervalSeconds * 1000) / devices.length));
  });
  await Promise.all(pending);
  return counts;
}

// Latency samples: the measured call and its baseline take turns, so a neighbour's burst of
// CPU lands on both alike.
import { percentile } from '../eventstore/support.mjs';

/**
 * Calls each function `n` times after `warmup` untimed rounds, alternating them; returns
 * `{ name: { p50, p95, max, n } }` in milliseconds.
 */
export async function alternate(calls, { n, warmup }) {
  const times = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
  for (let i = 0; i < warmup + n; i++) {
    for (const [name, call] of Object.entries(calls)) {
      const t0 = performance.now();
      await call();
      if (i >= warmup) times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([k, v]) => [k, { p50: percentile(v, 50), p95: percentile(v, 95), max: Math.max(...v), n: v.length }]),
  );
}

/** A GET with the bearer token that fails loudly on anything but 200; resolves with the parsed body. */
export function getter(base, token) {
  return async (pathAndQuery) => {
    const response = await fetch(`${base}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${pathAndQuery}: ${response.status} ${body.slice(0, 300)}`);
    return JSON.parse(body);
  };
}

// Every seeded device holding GET /devices/entitlements/stream, as a desktop host would.
import { ENTITLEMENT_STREAM_EVENTS } from '@meshwork/contracts';
import sse from './sse.cjs';

const STREAM_PATH = '/devices/entitlements/stream';
/** Connections being opened at once: more would overflow the api's accept backlog (511) for nothing. */
const OPENING_AT_ONCE = 100;
const FIRST_DOCUMENT_TIMEOUT_MS = 30_000;

/** The payload of a JWS compact token, unverified: to see which document arrived (verification comes after). */
export const payloadOf = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

/**
 * One device's stream. It keeps its first document and, once `expect(payload)` is set,
 * the first later document that passes it, with the time it came off the socket.
 */
async function holdStream(base, token) {
  const state = { first: null, awaited: null, arrivedAt: null, heartbeats: 0, ended: false, close: () => {} };
  let gotFirst;
  const first = new Promise((resolve) => (gotFirst = resolve));
  const onEvent = (event, receivedAt) => {
    if (event.event === ENTITLEMENT_STREAM_EVENTS.revoked) return;
    const { token } = JSON.parse(event.data);
    if (!state.first) {
      state.first = { token, payload: payloadOf(token) };
      gotFirst();
    } else if (state.expect && !state.awaited && state.expect(payloadOf(token))) {
      state.awaited = token;
      state.arrivedAt = receivedAt;
      state.onAwaited?.();
    }
  };
  const stream = await sse.openEventStream(
    `${base}${STREAM_PATH}`,
    token,
    onEvent,
    () => (state.ended = true),
    () => state.heartbeats++,
  );
  state.close = stream.close;
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('no first document')), FIRST_DOCUMENT_TIMEOUT_MS)));
  try {
    await Promise.race([first, timeout]);
  } catch (error) {
    stream.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return state;
}

/** Opens a stream for each device, OPENING_AT_ONCE at a time, each done at its first document. */
export async function openStreams(base, devices) {
  const streams = new Array(devices.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(OPENING_AT_ONCE, devices.length) }, async () => {
      while (next < devices.length) {
        const i = next++;
        streams[i] = await holdStream(base, devices[i].token);
      }
    }),
  );
  return streams;
}

/**
 * Makes every stream wait for a document that passes `expect`; resolves when all have one or
 * after `timeoutMs`, whichever comes first (the caller counts who received).
 */
export function awaitDocuments(streams, expect, timeoutMs) {
  return new Promise((resolve) => {
    let waiting = streams.length;
    const timer = setTimeout(resolve, timeoutMs);
    for (const stream of streams) {
      stream.expect = expect;
      stream.onAwaited = () => {
        if (--waiting === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
    }
  });
}

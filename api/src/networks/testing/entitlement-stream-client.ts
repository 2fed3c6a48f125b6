import { EVENTUALLY_MS } from '@meshwork/testkit/eventually';

/** One server-sent event as the host's EventSource would see it (comments are kept as `comment`). */
export interface StreamEvent {
  event: string;
  id?: string;
  data?: string;
  retry?: number;
  comment?: string;
}

/**
 * A desktop host holding GET /devices/entitlements/stream on a listening api (`base`): the
 * events as they arrive, each wait bounded so a missing event fails the test instead of
 * hanging it.
 */
export async function openEntitlementStream(base: string, accessToken: string, lastEventId?: string) {
  const abort = new AbortController();
  const response = await fetch(`${base}/api/v1/devices/entitlements/stream`, {
    headers: { Authorization: `Bearer ${accessToken}`, ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }) },
    signal: abort.signal,
  });
  const received: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const wake = () => waiters.forEach((w) => w());

  const reading = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          received.push(parseFrame(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
        wake();
      }
    } catch {
      // aborted by close()
    } finally {
      ended = true;
      wake();
    }
  })();

  /** Resolves with the first event from `from` on that matches, or fails after `timeoutMs`. */
  async function waitFor(match: (e: StreamEvent) => boolean, from: number, timeoutMs: number, what: string): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = received.findIndex((e, i) => i >= from && match(e));
      if (index >= 0) return index;
      if (ended) throw new Error(`the stream ended before ${what}; got ${JSON.stringify(received)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(received)}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        waiters.add(done);
      });
    }
  }

  let cursor = 0;
  return {
    status: response.status,
    headers: response.headers,
    received,
    /** The next event named `event` after the last one taken, within `timeoutMs`. */
    async next(event: string, timeoutMs = EVENTUALLY_MS): Promise<StreamEvent> {
      const index = await waitFor((e) => e.event === event, cursor, timeoutMs, `"${event}" event`);
      cursor = index + 1;
      return received[index]!;
    },
    /** Resolves when the server has closed the stream, or fails after `timeoutMs`. */
    async ended(timeoutMs = EVENTUALLY_MS): Promise<void> {
      await Promise.race([
        reading,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), timeoutMs).unref()),
      ]);
    },
    /** The events named `event` taken or not, from the start. */
    all: (event: string) => received.filter((e) => e.event === event),
    close: async () => {
      abort.abort();
      await reading;
    },
  };
}

export type EntitlementStreamClient = Awaited<ReturnType<typeof openEntitlementStream>>;

function parseFrame(frame: string): StreamEvent {
  const event: StreamEvent = { event: 'message' };
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) {
      event.event = 'comment';
      event.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event.event = value;
    else if (field === 'id') event.id = value;
    else if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
    else if (field === 'retry') {
      event.event = 'retry';
      event.retry = Number(value);
    }
  }
  return event;
}

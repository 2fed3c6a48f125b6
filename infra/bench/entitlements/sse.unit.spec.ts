import { SseParser } from './sse.cjs';

interface Seen {
  events: { event: string; data: string; id: string }[];
  comments: string[];
}

/** Feeds `chunks` to a fresh parser and answers what it dispatched. */
function parse(...chunks: string[]): Seen {
  const seen: Seen = { events: [], comments: [] };
  const parser = new SseParser(
    (e: Seen['events'][number]) => seen.events.push(e),
    (c: string) => seen.comments.push(c),
  );
  for (const chunk of chunks) parser.push(chunk);
  return seen;
}

describe('SseParser', () => {
  it('dispatches an event with its name, id and data on the blank line', () => {
    expect(parse('retry: 3000\n\nevent: entitlements\nid: 42\ndata: {"token":"a.b.c"}\n\n').events).toEqual([
      { event: 'entitlements', id: '42', data: '{"token":"a.b.c"}' },
    ]);
  });

  it('waits for the blank line, across chunks split anywhere', () => {
    const text = 'event: revoked\ndata: {"reason":"device_revoked"}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse(text.slice(0, cut), text.slice(cut)).events).toEqual([
        { event: 'revoked', id: '', data: '{"reason":"device_revoked"}' },
      ]);
    }
    expect(parse(text.slice(0, -1)).events).toEqual([]);
  });

  it('reads \\r\\n and \\r line endings, even a \\r\\n split between chunks', () => {
    expect(parse('data: x\r', '\n\r', '\ndata: y\r\r', '\n').events.map((e) => e.data)).toEqual(['x', 'y']);
  });

  it('joins data lines, defaults the name to message, and keeps the last id for later events', () => {
    expect(parse('id: 7\ndata: a\ndata: b\n\ndata: c\n\n').events).toEqual([
      { event: 'message', id: '7', data: 'a\nb' },
      { event: 'message', id: '7', data: 'c' },
    ]);
  });

  it('passes comments (the heartbeat) on and dispatches nothing for them', () => {
    expect(parse(': heartbeat\n\n:x\n\n')).toEqual({ events: [], comments: ['heartbeat', 'x'] });
  });
});

import { parseLastEventId, sse } from './sse';

describe('the entitlement stream’s frames', () => {
  it('reads Last-Event-ID as a seq, and anything else as none', () => {
    expect(parseLastEventId('42')).toBe(42);
    expect(parseLastEventId(' 7 ')).toBe(7);
    for (const header of [undefined, '', '-1', '4.2', 'abc', '9'.repeat(20)]) expect(parseLastEventId(header)).toBeNull();
  });

  it('writes an event with its id and one data line, and a revocation without id', () => {
    expect(sse.entitlements(42, { token: 'a.b.c' })).toBe('id: 42\nevent: entitlements\ndata: {"token":"a.b.c"}\n\n');
    expect(sse.revoked({ reason: 'device_revoked', revoked_at: '2026-11-23T10:00:00.000Z' })).toBe(
      'event: revoked\ndata: {"reason":"device_revoked","revoked_at":"2026-11-23T10:00:00.000Z"}\n\n',
    );
    expect(sse.retry).toBe('retry: 3000\n\n');
  });
});

import type { EntitlementDocument } from '@meshwork/contracts';
import { documentContent, parseLastEventId, sse } from './sse';

describe('the entitlement stream’s frames', () => {
  const document = {
    v: 1,
    iss: 'https://meshwork.example',
    sub: 'd1',
    user_id: 'u1',
    plan: { slug: 'pro', name: 'Pro', max_networks: 5, max_clients_per_network: 10, download_access: true, expires_at: null },
    models: [],
    networks: [],
    iat: 1_000,
    exp: 2_000,
    grace_until: 3_000,
    seq: 42,
  } as EntitlementDocument;

  it('compares documents without their times and revision, and with everything else', () => {
    const later = { ...document, iat: 5_000, exp: 6_000, grace_until: 7_000, seq: 50 };
    expect(documentContent(later)).toBe(documentContent(document));
    expect(documentContent({ ...document, plan: { ...document.plan, max_networks: 6 } })).not.toBe(documentContent(document));
  });

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

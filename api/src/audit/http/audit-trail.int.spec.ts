import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { type AuditEntry, type AuthResponse, SYSTEM_ACTOR } from '@meshwork/contracts';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { registerAccount, registerAuditor, registerCustomer, TEST_PASSWORD, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { caughtUp, startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { AUDIT_TRAIL_PROJECTION } from '../projections/audit-trail.entities';

describe('the audit trail api', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  let auditor: AuthResponse;
  let customer: TestCustomer;
  let deactivation: string;
  const tag = randomUUID().slice(0, 6);
  const http = () => request(subject.app.getHttpServer());
  const read = (path: string, as: AuthResponse = auditor) =>
    http().get(`/api/v1/admin-panel/audit${path}`).set('Authorization', `Bearer ${as.tokens.access}`);
  /** Positions of every entry the filter matches, page by page through next_cursor. */
  const paged = async (query: string, limit: number) => {
    const positions: number[] = [];
    for (let cursor: number | null = null, pages = 0; pages < 100; pages++) {
      const page: { results: AuditEntry[]; next_cursor: number | null } = (
        await read(`/?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`).expect(200)
      ).body;
      expect(page.results.length).toBeLessThanOrEqual(limit);
      positions.push(...page.results.map((e) => e.position));
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    return positions;
  };

  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    staff = await registerAccount(subject.app, 'staff', tag, true);
    auditor = await registerAuditor(subject.app, 'audra', tag);
    customer = await registerCustomer(subject.app);
    await http()
      .patch('/api/v1/profile/')
      .set('Authorization', `Bearer ${customer.token}`)
      .set('User-Agent', 'AuditTest/1.0')
      .send({ first_name: 'Kim' })
      .expect(200);
    const deactivated = await http()
      .put(`/api/v1/admin-panel/users/${customer.userId}`)
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .send({ is_active: false })
      .expect(200);
    deactivation = deactivated.headers['x-correlation-id']!;
    await caughtUp(subject, AUDIT_TRAIL_PROJECTION);
  });
  afterAll(() => subject.close());

  it("shows a user's history newest first, with actors named, ip opened and secrets and personal fields left out", async () => {
    const { body } = await read(`/?resource_type=user&resource_id=${customer.userId}`).expect(200);
    const entries = body.results as AuditEntry[];
    expect(entries.map((e) => e.action)).toEqual(['UserDeactivated', 'ProfileUpdated', 'UserSignedIn', 'UserRegistered']);
    expect(entries.map((e) => e.version)).toEqual([4, 3, 2, 1]);
    expect(body.next_cursor).toBeNull();

    const [deactivated, profile, , registered] = entries;
    expect(deactivated!.actor).toMatchObject({ id: staff.user.id, email: staff.user.email, is_staff: true });
    expect(deactivated!.correlation_id).toBe(deactivation);
    expect(profile!.actor).toMatchObject({ id: customer.userId, email: customer.email, is_staff: false, user_agent: 'AuditTest/1.0' });
    expect(profile!.actor!.ip_address).toMatch(/127\.0\.0\.1/);
    // firstName is personal (encrypted in the log); passwordHash, email and username are left out.
    expect(profile!.details).toEqual({});
    expect(registered!.details).toEqual({ userId: customer.userId, isStaff: false, isAuditor: false });
  });

  it('records the person, ip and user agent of what they do before any token: sign-up, sign-in, sign-out; staff stay the actor of accounts they make', async () => {
    const name = randomUUID().slice(0, 8);
    const email = `${name}@example.com`;
    const registered = await http()
      .post('/api/v1/register/')
      .set('User-Agent', 'SignUp/1.0')
      .send({ email, username: `user_${name}`, password: TEST_PASSWORD, password_confirm: TEST_PASSWORD })
      .expect(201);
    const userId = registered.body.user.id as string;
    const signedIn = await http()
      .post('/api/v1/login/')
      .set('User-Agent', 'SignIn/2.0')
      .send({ email, password: TEST_PASSWORD })
      .expect(200);
    await http().post('/api/v1/logout/').set('User-Agent', 'SignOut/3.0').send({ refresh_token: signedIn.body.tokens.refresh }).expect(200);
    const made = await http()
      .post('/api/v1/admin-panel/users/')
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .set('User-Agent', 'Console/4.0')
      .send({ email: `made-${name}@example.com`, username: `made_${name}` })
      .expect(201);
    await caughtUp(subject, AUDIT_TRAIL_PROJECTION);

    const history = (await read(`/?resource_type=user&resource_id=${userId}`).expect(200)).body.results as AuditEntry[];
    const person = { id: userId, email, is_staff: false, ip_address: expect.stringMatching(/127\.0\.0\.1/), api_token_id: null };
    expect(history.map((e) => [e.action, e.actor])).toEqual([
      ['UserSignedOut', { ...person, user_agent: 'SignOut/3.0' }],
      ['UserSignedIn', { ...person, user_agent: 'SignIn/2.0' }],
      ['UserSignedIn', { ...person, user_agent: 'SignUp/1.0' }],
      ['UserRegistered', { ...person, user_agent: 'SignUp/1.0' }],
    ]);

    const creation = (await read(`/?resource_type=user&resource_id=${made.body.id}&action=UserRegistered`).expect(200)).body
      .results as AuditEntry[];
    expect(creation.map((e) => e.actor)).toEqual([
      {
        id: staff.user.id,
        email: staff.user.email,
        is_staff: true,
        ip_address: expect.stringMatching(/127\.0\.0\.1/),
        user_agent: 'Console/4.0',
        api_token_id: null,
      },
    ]);
  });

  it('filters by actor (id or email), action, correlation id and time, and pages by cursor without gaps or repeats', async () => {
    const byEmail = (await read(`/?actor=${encodeURIComponent(staff.user.email)}&action=UserDeactivated`).expect(200)).body.results;
    const byId = (await read(`/?actor=${staff.user.id}&action=UserDeactivated`).expect(200)).body.results;
    expect(byEmail).toEqual(byId);
    expect(byEmail.map((e: AuditEntry) => e.resource_id)).toEqual([customer.userId]);
    const request = (await read(`/?correlation_id=${deactivation}`).expect(200)).body.results;
    expect(request.map((e: AuditEntry) => e.action)).toEqual(['UserDeactivated']);
    expect((await read('/?actor=nobody@example.com').expect(200)).body).toEqual({ results: [], next_cursor: null });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await read(`/?from=${encodeURIComponent(future)}`).expect(200)).body.results).toEqual([]);
    expect((await read(`/?to=${encodeURIComponent(future)}&limit=1`).expect(200)).body.results).toHaveLength(1);

    const all = (await read('/?limit=200').expect(200)).body.results.map((e: AuditEntry) => e.position);
    expect(await paged('', 3)).toEqual(all);
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });

  it('filters by time exactly though the log holds events dated out of position order, with other filters and page by page', async () => {
    // A backdated import: positions say nothing about time here, and entries share an hour with
    // a bound on the other side of it. The lowest and highest positions of the hours the range
    // touches are the entries at `from` and just before `to`: a span that left out either
    // bound's hour would lose one.
    const from = '2001-03-10T10:30:00.000Z';
    const to = '2001-03-12T10:30:00.000Z';
    const dated: [time: string, action: string][] = [
      ['2001-01-15T08:00:00.000Z', 'LegacySignIn'],
      [from, 'LegacySignIn'],
      ['2001-06-01T00:00:00.000Z', 'LegacyPayment'],
      ['2001-03-11T12:00:00.000Z', 'LegacyPayment'],
      ['2001-03-10T10:29:59.999Z', 'LegacySignIn'],
      ['2001-03-10T11:00:00.000Z', 'LegacyPayment'],
      [to, 'LegacySignIn'],
      ['2001-03-12T10:45:00.000Z', 'LegacyPayment'],
      ['2001-03-12T09:00:00.000Z', 'LegacySignIn'],
      ['2001-01-20T00:00:00.000Z', 'LegacyPayment'],
      ['2001-03-11T00:00:00.000Z', 'LegacySignIn'],
      ['2001-03-10T10:15:00.000Z', 'LegacyPayment'],
      ['2001-03-12T10:29:59.999Z', 'LegacyPayment'],
      ['2001-12-31T23:00:00.000Z', 'LegacySignIn'],
    ];
    const userId = randomUUID();
    const store = subject.app.get<EventStore>(EVENT_STORE);
    const log: { position: number; time: string; action: string }[] = [];
    for (const [time, action] of dated) {
      const metadata = { correlationId: randomUUID(), causationId: null, actor: SYSTEM_ACTOR };
      const event = anEvent({ type: action, occurredAt: new Date(time), data: {}, metadata });
      log.push({ position: (await store.append(`user-${userId}`, [event], 'any')).positions[0]!, time, action });
    }
    await caughtUp(subject, AUDIT_TRAIL_PROJECTION);
    // Every time here is written alike, so text order is time order.
    const newestFirst = (keep: (e: (typeof log)[number]) => boolean) =>
      log
        .filter(keep)
        .map((e) => e.position)
        .reverse();
    const inRange = (e: { time: string }) => e.time >= from && e.time < to;
    const range = `from=${from}&to=${to}`;

    expect(newestFirst(inRange)).toHaveLength(6);
    expect(await paged(range, 2)).toEqual(newestFirst(inRange));
    expect(await paged(range, 200)).toEqual(newestFirst(inRange));
    expect(await paged(`${range}&action=LegacyPayment`, 2)).toEqual(newestFirst((e) => inRange(e) && e.action === 'LegacyPayment'));
    expect(await paged(`${range}&resource_type=user&resource_id=${userId}`, 4)).toEqual(newestFirst(inRange));
    // One bound only: every other entry in this database happened today.
    expect(await paged('to=2001-03-11T00:00:00.000Z', 3)).toEqual(newestFirst((e) => e.time < '2001-03-11T00:00:00.000Z'));
    expect(await paged(`from=${from}&action=LegacySignIn`, 2)).toEqual(newestFirst((e) => e.time >= from && e.action === 'LegacySignIn'));
    // Hours without entries, and an hour whose entries all fall outside the range.
    expect((await read('/?from=2001-04-01T00:00:00.000Z&to=2001-05-01T00:00:00.000Z').expect(200)).body).toEqual({
      results: [],
      next_cursor: null,
    });
    expect((await read('/?from=2001-03-10T10:00:00.000Z&to=2001-03-10T10:15:00.000Z').expect(200)).body.results).toEqual([]);

    const file = await read(`/export/?${range}`).expect(200);
    const positions = file.text
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));
    expect(positions).toEqual(newestFirst(inRange));
  });

  it('exports the filtered trail as CSV', async () => {
    const response = await read(`/export/?resource_type=user&resource_id=${customer.userId}`).expect(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Position,Time,Action,Resource,Resource ID,Actor,Actor ID,Staff,IP Address,User Agent,Correlation ID,Details');
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['UserDeactivated', 'ProfileUpdated', 'UserSignedIn', 'UserRegistered']);
    expect(lines[1]).toContain(`,${staff.user.email},${staff.user.id},Yes,`);
  });

  it('keeps a hostile User-Agent in one cell of the export, and a formula in it as text', async () => {
    const other = await registerCustomer(subject.app);
    const change = (agent: string, name: string) =>
      http().patch('/api/v1/profile/').set('Authorization', `Bearer ${other.token}`).set('User-Agent', agent).send({ last_name: name });
    await change('x;=1+1;x', 'Semi').expect(200);
    await change('=HYPERLINK("http://evil.example","open")', 'Formula').expect(200);
    await caughtUp(subject, AUDIT_TRAIL_PROJECTION);
    const file = await read(`/export/?resource_type=user&resource_id=${other.userId}&action=ProfileUpdated`).expect(200);
    const lines = file.text.trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(2);
    // Newest first: the formula, then the semicolons; each quoted where it stands, the formula behind an apostrophe.
    expect(lines[0]).toContain(`,"'=HYPERLINK(""http://evil.example"",""open"")",`);
    expect(lines[1]).toContain(',"x;=1+1;x",');
  });

  it('names an erased account’s actions "erased user", without its ip, as the log can no longer tell', async () => {
    const other = await registerCustomer(subject.app);
    await http().patch('/api/v1/profile/').set('Authorization', `Bearer ${other.token}`).send({ last_name: 'Lee' }).expect(200);
    await http().delete(`/api/v1/admin-panel/users/${other.userId}`).set('Authorization', `Bearer ${staff.tokens.access}`).expect(200);
    await caughtUp(subject, AUDIT_TRAIL_PROJECTION);
    const entries = (await read(`/?resource_type=user&resource_id=${other.userId}&action=ProfileUpdated`).expect(200)).body.results;
    expect(entries).toHaveLength(1);
    expect(entries[0].actor).toMatchObject({ id: other.userId, email: 'erased user', ip_address: null, user_agent: null });
  });

  it('refuses customers and bad filters, and lets only GET through for auditors', async () => {
    const other = await registerCustomer(subject.app);
    await other.get('/admin-panel/audit/').expect(403);
    await http().get('/api/v1/admin-panel/audit/').expect(401);
    const bad = await read('/?limit=0&from=yesterday&colour=red').expect(400);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(['from', 'limit']);
    expect(bad.body.non_field_errors.join(' ')).toMatch(/colour/);
    await read('/?cursor=1e3').expect(400);
  });

  it('takes any ISO time, even with an offset or a year PostgreSQL would refuse, and answers the list and the file alike', async () => {
    // Found by the fuzzer: +19:45 reached PostgreSQL as written and broke the export mid-file.
    const odd = `?from=${encodeURIComponent('2026-11-25T05:56:08.505Z')}&to=${encodeURIComponent('0621-03-20T11:56:32+19:45')}`;
    expect((await read(`/${odd}`).expect(200)).body).toEqual({ results: [], next_cursor: null });
    const file = await read(`/export/${odd}`).expect(200);
    expect(file.text.trim().split('\n')).toHaveLength(1);
    const wide = `?from=${encodeURIComponent('2000-01-01T00:00:00+15:30')}&to=${encodeURIComponent('2999-01-01T00:00:00-19:45')}`;
    expect((await read(`/${wide}&limit=1`).expect(200)).body.results).toHaveLength(1);
  });
});

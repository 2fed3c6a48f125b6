import { request } from 'node:http';
import { CODE_LIFETIME_MS } from './window-access';
import { askInstanceForCode } from './instance-handshake';
import { startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';

/** A signed-out host never calls the api, so none needs to answer here. */
const NO_API = 'http://127.0.0.1:9';

/** A GET with exactly these headers (fetch would set its own Host). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; type: string }> {
  return new Promise((resolve, reject) =>
    request(url, { headers }, (response) => {
      response.resume();
      resolve({ status: response.statusCode!, type: String(response.headers['content-type']) });
    })
      .on('error', reject)
      .end(),
  );
}

/** Issue 30 section 2 and issue 31 items 6 and 10: the window's way in is a one-time code, never the cookie. */
describe('the host’s window server', () => {
  let subject: TestHost;
  let now = Date.now();

  beforeAll(async () => {
    subject = await startHost(NO_API, { clock: () => new Date(now) });
  });
  afterAll(() => subject?.close());

  const origin = () => subject.control.origin;
  const codeOf = (url: string) => new URL(url).searchParams.get('code')!;
  const trade = (url: string) => fetch(url, { redirect: 'manual' });
  const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0] ?? null;

  it('answers a browser without a session with a sign-in page that says how to open the window, and the api with 401 JSON', async () => {
    for (const path of ['/', '/models', '/settings?x=1']) {
      const page = await fetch(`${origin()}${path}`);
      expect(page.status).toBe(401);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('Meshwork is running on this computer');
      expect(html).toContain('from the Start menu on Windows');
      expect(html).not.toContain('That link has been used');
    }
    const api = await fetch(`${origin()}/host/state`);
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ message: 'Open the Meshwork window from the app: this page has no access.' });
  });

  it('trades a code once for a new HttpOnly, SameSite=Strict session cookie and sends the browser on without the code', async () => {
    const url = subject.control.windowUrl('/models');
    const traded = await trade(`${url}&lang=fa`);
    expect(traded.status).toBe(303);
    expect(traded.headers.get('location')).toBe('/models?lang=fa');
    expect(traded.headers.get('set-cookie')).toMatch(/^meshwork_host_\d+=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    const cookie = cookieOf(traded)!;
    expect((await fetch(`${origin()}/host/state`, { headers: { Cookie: cookie } })).status).toBe(200);

    // Spent: the same address again gets the sign-in page with a word on why, and no cookie.
    const again = await trade(url);
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('That link has been used already or is more than two minutes old');
  });

  it('never makes the code, the instance secret or an old launch link a cookie', async () => {
    const url = subject.control.windowUrl();
    const code = codeOf(url);
    const cookie = cookieOf(await trade(url))!;
    const [name, session] = cookie.split('=');
    expect(session).not.toBe(code);
    expect(session).not.toBe(subject.control.secret);
    const state = (value: string) => fetch(`${origin()}/host/state`, { headers: { Cookie: `${name}=${value}` } }).then((r) => r.status);
    expect(await state(code)).toBe(401);
    expect(await state(subject.control.secret)).toBe(401);
    // Today's launch link (`?launch=<secret>`) opens nothing.
    const launch = await trade(`${origin()}/?launch=${subject.control.secret}`);
    expect(launch.status).toBe(401);
    expect(launch.headers.get('set-cookie')).toBeNull();
  });

  it('lets a code expire after two minutes', async () => {
    const fresh = subject.control.windowUrl();
    const stale = subject.control.windowUrl();
    now += CODE_LIFETIME_MS - 1000;
    expect((await trade(fresh)).status).toBe(303);
    now += 2000;
    expect((await trade(stale)).status).toBe(401);
  });

  it('takes writes from the window opened as localhost, refuses other sites’ writes and other Host headers', async () => {
    const localhost = `http://localhost:${subject.control.port}`;
    const traded = await trade(subject.control.windowUrl().replace(origin(), localhost));
    const cookie = cookieOf(traded)!;
    const write = (from: string) =>
      fetch(`${localhost}/host/api-keys`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: from, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `From ${from}` }),
      });
    expect((await write(localhost)).status).toBe(200);
    expect((await write(origin())).status).toBe(200);
    const forged = await write('https://evil.example');
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ message: 'Requests from other sites are refused.' });
    expect((await write(`http://localhost:${subject.control.port + 1}`)).status).toBe(403);
    expect(await rawGet(`${origin()}/`, { Host: `evil.example:${subject.control.port}` })).toMatchObject({ status: 421 });
  });

  it('serves its icon to anyone on loopback, the sign-in page included', async () => {
    const icon = await fetch(`${origin()}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    expect(bytes.readUInt16LE(2)).toBe(1); // an icon resource
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  });

  it('never redirects a traded code to another site', async () => {
    const traded = await trade(`${origin()}/.//evil.example/?code=${subject.control.newCode()}`);
    expect(traded.status).toBe(303);
    expect(traded.headers.get('location')).toBe('/');
  });

  it('gives a code to a second start that shows the instance secret, and proves itself to it', async () => {
    const code = await askInstanceForCode(subject.control.port, subject.control.secret);
    expect(code).toMatch(/^[\w-]{43}$/);
    expect((await trade(`${origin()}/?code=${code}`)).status).toBe(303);
    expect(await askInstanceForCode(subject.control.port, 'x'.repeat(43))).toBeNull();
    // A window's session is not the instance secret: it cannot ask for codes.
    const cookie = cookieOf(await trade(subject.control.windowUrl()))!;
    const asked = await fetch(`${origin()}/host/instance/code`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ nonce: 'n'.repeat(43) }),
    });
    expect(asked.status).toBe(401);
  });
});

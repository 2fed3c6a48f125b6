import { isInsideAddress, sendWebhook } from './webhook-sender';

describe('the webhook sender in full mode', () => {
  it('counts loopback, private, link-local, mapped and metadata addresses as inside', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect([address, isInsideAddress(address)]).toEqual([address, true]);
    for (const address of ['93.184.216.34', '::ffff:93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])
      expect([address, isInsideAddress(address)]).toEqual([address, false]);
  });

  it('refuses http, inside addresses and names that resolve inside, without connecting', async () => {
    const options = { strict: true, timeoutMs: 2000, maxBodyBytes: 100 };
    expect((await sendWebhook('http://example.com/', {}, '{}', options)).error).toBe('Only https endpoints are called.');
    expect((await sendWebhook('https://127.0.0.1/', {}, '{}', options)).error).toMatch(/may not reach/);
    expect((await sendWebhook('https://[::1]:8443/', {}, '{}', options)).error).toMatch(/may not reach/);
    expect((await sendWebhook('https://localhost/', {}, '{}', options)).error).toMatch(
      /localhost resolves to .* which webhooks may not reach/,
    );
  });
});

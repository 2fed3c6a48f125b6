import request from 'supertest';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

/**
 * Multipart bodies the fuzzer sent to the two streamed uploads: a part header busboy cannot
 * read answered 500, and a body cut off inside a file killed the api process (an 'error'
 * event on the file stream before anyone listened). Both are bad input: 400, and the api lives.
 */
describe('Malformed multipart uploads', () => {
  let subject: TestApp;
  let token: string;
  beforeAll(async () => {
    subject = await startTestApp();
    token = (await registerAccount(subject.app, 'multipart', String(Date.now()), true)).tokens.access;
  });
  afterAll(() => subject.close());

  const boundary = 'meshworkfuzz0123456789';
  const part = (headers: string, value: string) => `--${boundary}\r\n${headers}\r\n\r\n${value}\r\n`;
  const send = (path: string, body: string) =>
    request(subject.app.getHttpServer())
      .post(`/api/v1${path}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
      .send(body);

  // A field name with bytes busboy refuses in a part header ("Malformed part header").
  const badHeader = part('Content-Disposition: form-data; name="w\u00a8\u00b4\u00e0\u0003"', 'x');
  const modelFields =
    part('Content-Disposition: form-data; name="name"', `cut-${Date.now()}`) +
    part('Content-Disposition: form-data; name="display_name"', 'Cut') +
    part('Content-Disposition: form-data; name="version"', '1.0.0') +
    part('Content-Disposition: form-data; name="allowed_plans"', '["pro"]') +
    part('Content-Disposition: form-data; name="checksums"', JSON.stringify({ 'a.bin': 'a'.repeat(64) }));
  // The file part starts and the body ends: no closing boundary ("Unexpected end of form").
  const cutFile = (field: string, file: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file}"\r\n\r\nabc`;

  it.each([
    ['a release with an unreadable part header', '/models/admin/releases/', badHeader],
    ['a model with an unreadable part header', '/models/admin/upload/', badHeader],
    [
      'a release cut off inside its file',
      '/models/admin/releases/',
      part('Content-Disposition: form-data; name="version"', '9.9.9') + cutFile('file', 'setup.exe'),
    ],
    ['a model cut off inside its file', '/models/admin/upload/', modelFields + cutFile('files', 'a.bin')],
  ])('answers %s with 400, and keeps serving', async (_case, path, body) => {
    const response = await send(path, body);
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual(expect.any(String));
    await request(subject.app.getHttpServer()).get('/api/v1/health/ping/').expect(200);
  });
});

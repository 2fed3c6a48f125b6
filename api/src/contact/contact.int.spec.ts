import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { contactMessages } from '@meshwork/contracts';
import { freePort } from '@meshwork/testkit/browser';
import { required } from '@meshwork/testkit/infra';
import { mailTo } from '@meshwork/testkit/mail';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

describe('Contact Sales: POST /api/v1/contact/', () => {
  const sales = `sales-${randomUUID().slice(0, 8)}@example.com`;
  let subject: TestApp;
  beforeAll(async () => {
    subject = await startTestApp({ SALES_EMAIL: sales });
  });
  afterAll(() => subject.close());
  const post = (app: TestApp, body: object) => request(app.app.getHttpServer()).post('/api/v1/contact/').send(body);

  it('mails the message to sales, from a visitor, and says so', async () => {
    const inquiry = {
      name: 'Ada Lovelace',
      email: 'ada@analytical.example',
      company: 'Engines Ltd',
      message: 'We want 40 clients\non one network.',
    };
    const answer = await post(subject, inquiry).expect(201);
    expect(answer.body).toEqual({ message: contactMessages.sent('ada@analytical.example') });
    const mail = await mailTo(sales);
    expect(mail.subject).toBe('Sales inquiry from Ada Lovelace, Engines Ltd');
    for (const part of ['Ada Lovelace', 'ada@analytical.example', 'Engines Ltd', 'We want 40 clients\non one network.'])
      expect(mail.text).toContain(part);
  });

  it('answers bad fields in the spec’s error body, per field, and mails nothing', async () => {
    const mailed = async () =>
      ((await (await fetch(`${required('MAIL_CAPTURE_URL')}/messages?to=${encodeURIComponent(sales)}`)).json()) as unknown[]).length;
    const before = await mailed();
    const answer = await post(subject, { name: ' ', email: 'not-an-email', message: '' }).expect(400);
    expect(answer.body.errors).toEqual({
      name: [contactMessages.nameRequired],
      email: ['Invalid email address'],
      message: [contactMessages.messageRequired],
    });
    expect(await mailed()).toBe(before);
  });

  it('refuses a name with a line break, so it cannot add mail headers', async () => {
    const answer = await post(subject, { name: 'Eve\r\nBcc: victim@example.com', email: 'eve@example.com', message: 'hi' }).expect(400);
    expect(answer.body.errors).toEqual({ name: ['Name contains characters that are not allowed'] });
  });

  it('answers 503 with a clear message when the mail server does not take it', async () => {
    const closedPort = await freePort();
    const noMail = await startTestApp({ SALES_EMAIL: sales, SMTP_URL: `smtp://127.0.0.1:${closedPort}` }, subject);
    try {
      const answer = await post(noMail, { name: 'Bob', email: 'bob@example.com', message: 'Call me' }).expect(503);
      expect(answer.body).toEqual({ message: contactMessages.notSent });
    } finally {
      await noMail.close();
    }
  });
});

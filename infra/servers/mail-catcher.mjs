#!/usr/bin/env node
// Mail catcher: an SMTP server that accepts every message and an HTTP JSON
// API to read them back. Integration tests send real mail through nodemailer
// (SMTP_URL) and then fetch e.g. the password-reset link from here
// (MAIL_CAPTURE_URL) — the whole path is exercised, nothing is mocked.
//
//   GET    /messages            all messages, oldest first
//   GET    /messages?to=a@b.c   only messages with that recipient (envelope or To/Cc)
//   GET    /messages/:id        one message
//   DELETE /messages            forget everything (tests call this in beforeEach)
//   GET    /health              {"ok":true,"count":N}
//
// Messages live in memory only (a restart empties the box), capped at
// MAIL_MAX_MESSAGES (oldest dropped). Bodies are decoded by mailparser, so a
// quoted-printable link comes back whole, and `links` lists every URL found.
//
// Env: MAIL_HOST (127.0.0.1), MAIL_SMTP_PORT (11025), MAIL_HTTP_PORT (11080).
import http from 'node:http';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

const HOST = process.env.MAIL_HOST || '127.0.0.1';
const SMTP_PORT = Number(process.env.MAIL_SMTP_PORT || 11025);
const HTTP_PORT = Number(process.env.MAIL_HTTP_PORT || 11080);
const MAX = Number(process.env.MAIL_MAX_MESSAGES || 1000);

let messages = [];
let nextId = 1;

const addresses = (field) => (field ? [field].flat().flatMap((f) => f.value.map((v) => v.address.toLowerCase())) : []);

async function store(raw, envelope) {
  const mail = await simpleParser(raw);
  const text = mail.text ?? '';
  const html = typeof mail.html === 'string' ? mail.html : '';
  // HTML-escaped hrefs (&amp;) are unescaped so a test can follow the link as-is.
  const links = [...new Set(`${text}\n${html.replaceAll('&amp;', '&')}`.match(/https?:\/\/[^\s"'<>)\]]+/g) ?? [])];
  messages.push({
    id: String(nextId++),
    receivedAt: new Date().toISOString(),
    envelope: {
      from: envelope.mailFrom ? envelope.mailFrom.address : null,
      to: envelope.rcptTo.map((r) => r.address.toLowerCase()),
    },
    from: addresses(mail.from)[0] ?? null,
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    subject: mail.subject ?? '',
    date: mail.date?.toISOString() ?? null,
    messageId: mail.messageId ?? null,
    text,
    html,
    links,
    headers: Object.fromEntries([...mail.headers].map(([k, v]) => [k, typeof v === 'string' ? v : (v?.text ?? v?.value ?? v)])),
    attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.size })),
  });
  if (messages.length > MAX) messages = messages.slice(-MAX);
}

const smtp = new SMTPServer({
  authOptional: true, // accept with or without AUTH ...
  onAuth: (auth, session, cb) => cb(null, { user: auth.username }), // ... and any credentials
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'], // plain loopback SMTP; nodemailer would otherwise try TLS
  disableReverseLookup: true,
  size: 25 * 1024 * 1024,
  banner: 'meshwork mail-catcher',
  logger: false,
  onData(stream, session, cb) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () =>
      store(Buffer.concat(chunks), session.envelope).then(
        () => cb(null, 'captured'),
        (err) => cb(err),
      ),
    );
  },
});
smtp.on('error', (err) => console.error('smtp error:', err.message));

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const web = http.createServer((req, res) => {
  const url = new URL(req.url, `http://${HOST}`);
  if (url.pathname === '/health') return send(res, 200, { ok: true, count: messages.length });
  if (url.pathname === '/messages' && req.method === 'GET') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((m) => [...m.envelope.to, ...m.to, ...m.cc].includes(to)) : messages;
    return send(res, 200, list);
  }
  if (url.pathname === '/messages' && req.method === 'DELETE') {
    const count = messages.length;
    messages = [];
    return send(res, 200, { deleted: count });
  }
  const one = url.pathname.match(/^\/messages\/([^/]+)$/);
  if (one && req.method === 'GET') {
    const m = messages.find((x) => x.id === one[1]);
    return m ? send(res, 200, m) : send(res, 404, { error: 'not found' });
  }
  send(res, 404, { error: 'not found' });
});

smtp.listen(SMTP_PORT, HOST, () => console.log(`smtp listening on ${HOST}:${SMTP_PORT}`));
web.listen(HTTP_PORT, HOST, () => console.log(`http listening on http://${HOST}:${HTTP_PORT}`));

for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => {
    web.close();
    smtp.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}

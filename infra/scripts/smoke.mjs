#!/usr/bin/env node
// End-to-end check of the running infra with the same client libraries the
// app uses (pg, minio, stripe, nodemailer; Kafka is kafka-smoke.mjs):
//   node infra/scripts/smoke.mjs        (after `infra up`)
// Each step does a real round trip, not just a port check. Prints one line
// per step and "N passed, N failed"; exit code 1 on any failure.
import * as Minio from 'minio';
import nodemailer from 'nodemailer';
import pg from 'pg';
import Stripe from 'stripe';
import { env } from '../lib/index.mjs';

const e = env();
let passed = 0;
let failed = 0;

async function step(name, fn) {
  const t = Date.now();
  try {
    const detail = await fn();
    passed++;
    console.log(`ok   ${name} (${Date.now() - t} ms)${detail ? ` ${detail}` : ''}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name} (${Date.now() - t} ms): ${err?.message ?? err}`);
  }
}

await step('postgres: write + read a row', async () => {
  const client = new pg.Client({ connectionString: e.DATABASE_URL });
  await client.connect();
  try {
    await client.query('create temp table smoke (v text)');
    await client.query("insert into smoke values ('hello')");
    const { rows } = await client.query('select v, version() from smoke');
    return rows[0].version.split(' on ')[0];
  } finally {
    await client.end();
  }
});

await step('minio: bucket, put, get, delete', async () => {
  const u = new URL(e.S3_ENDPOINT);
  const s3 = new Minio.Client({
    endPoint: u.hostname,
    port: Number(u.port),
    useSSL: u.protocol === 'https:',
    accessKey: e.S3_ACCESS_KEY,
    secretKey: e.S3_SECRET_KEY,
    region: e.S3_REGION,
  });
  const bucket = `smoke-${Date.now()}`;
  await s3.makeBucket(bucket, e.S3_REGION);
  await s3.putObject(bucket, 'a.txt', Buffer.from('hello s3'));
  const chunks = [];
  for await (const c of await s3.getObject(bucket, 'a.txt')) chunks.push(c);
  await s3.removeObject(bucket, 'a.txt');
  await s3.removeBucket(bucket);
  if (Buffer.concat(chunks).toString() !== 'hello s3') throw new Error('content mismatch');
});

await step('stripe-mock: create customer via stripe SDK', async () => {
  const u = new URL(e.STRIPE_API_BASE);
  const stripe = new Stripe(e.STRIPE_SECRET_KEY, {
    host: u.hostname,
    port: Number(u.port),
    protocol: u.protocol.replace(':', ''),
    maxNetworkRetries: 0,
  });
  const c = await stripe.customers.create({ email: 'smoke@example.test' });
  return c.id;
});

await step('mail: send via SMTP_URL, read back from MAIL_CAPTURE_URL', async () => {
  const to = `smoke-${Date.now()}@example.test`;
  const link = `http://127.0.0.1:3000/reset-password?token=${'x'.repeat(80)}`; // long: forces QP soft breaks
  const transport = nodemailer.createTransport(e.SMTP_URL);
  await transport.sendMail({
    from: 'noreply@meshwork.test',
    to,
    subject: 'Reset your password',
    text: `Reset: ${link}`,
    html: `<p><a href="${link}">Reset</a></p>`,
  });
  transport.close();
  const res = await fetch(`${e.MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(to)}`);
  const msgs = await res.json();
  if (msgs.length !== 1) throw new Error(`expected 1 message for ${to}, got ${msgs.length}`);
  if (!msgs[0].links.includes(link)) throw new Error(`link not captured intact: ${JSON.stringify(msgs[0].links)}`);
  return `subject="${msgs[0].subject}"`;
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

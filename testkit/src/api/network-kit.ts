import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Network, NetworkList, UploadResponse } from '@meshwork/contracts';
import { sha256, uploadForm } from './upload-kit';
import { eventually } from '../eventually';
import { registerAccount, registerCustomer, type TestCustomer } from './accounts';
import { freePort } from '../browser';
import { startTestApp, type TestApp } from './test-app';

/**
 * A listening api on its own database with a staff account, for the networks tests: models
 * uploaded for chosen plans, customers on a plan through the simulated checkout, and the
 * customer's networks read back.
 */
export async function networksWorld() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const subject: TestApp = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000', PUBLIC_URL: base });
  await subject.app.listen(port, '127.0.0.1');
  const staffToken = (await registerAccount(subject.app, 'staff', randomUUID().slice(0, 8), true)).tokens.access;
  // The seeded plans reach billing's read model just after start; a model upload checks its
  // plans against it, so wait for them (a fresh CI run once lost this race).
  await eventually(async () => {
    const plans = (await (await fetch(`${base}/api/v1/subscriptions/plans/`)).json()) as { slug: string }[];
    return ['free', 'pro'].every((slug) => plans.some((plan) => plan.slug === slug));
  }, 'the seeded plans');

  /** A call as staff; `body` is sent as JSON, or as multipart when it is a form. */
  const staff = async (method: string, path: string, body?: unknown) => {
    const json = body !== undefined && !(body instanceof FormData);
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${staffToken}`, ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };

  /** Uploads a model through the console's call, as staff. */
  async function upload(form: FormData): Promise<UploadResponse> {
    const response = await fetch(`${base}/api/v1/models/admin/upload/`, {
      method: 'POST',
      body: form,
      headers: { Authorization: `Bearer ${staffToken}` },
    });
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as UploadResponse;
  }

  /** Uploads and publishes a small model open to `plans`; answers its name and id. */
  async function model(plans: string[]): Promise<{ name: string; id: string }> {
    const name = `model_${randomUUID().slice(0, 8)}`;
    const data = randomBytes(2_000);
    const form = uploadForm(
      {
        name,
        display_name: `Model ${name}`,
        version: '1.0.0',
        allowed_plans: JSON.stringify(plans),
        checksums: JSON.stringify({ 'w.onnx': sha256(data) }),
      },
      [{ name: 'w.onnx', data }],
    );
    const uploaded = await upload(form);
    return { name: uploaded.model_name, id: uploaded.model_id };
  }

  /** Subscribes (or upgrades) the customer to a plan through the simulated checkout. */
  async function subscribe(user: TestCustomer, planId: string): Promise<void> {
    const created = await user.post('/subscriptions/create/', { plan_id: planId }).expect(201);
    if (created.body.payment_url)
      await user.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
    await eventually(async () => (await user.get('/plan/').expect(200)).body.plan === planId, `${planId} plan`);
  }

  async function customer(planId = 'free'): Promise<TestCustomer> {
    const user = await registerCustomer(subject.app);
    if (planId !== 'free') await subscribe(user, planId);
    return user;
  }

  async function create(user: TestCustomer, name: string, modelId: string): Promise<Network> {
    return (await user.post('/networks/create/', { name, model_id: modelId }).expect(201)).body as Network;
  }

  const list = async (user: TestCustomer) => (await user.get('/networks/').expect(200)).body as NetworkList;
  /** Each network's name and status, oldest first. */
  const statuses = async (user: TestCustomer) => (await list(user)).networks.map((n) => `${n.name}:${n.status}`);

  const http = () => request(subject.app.getHttpServer());
  /** PATCH and DELETE as the customer (TestCustomer has GET and POST). */
  const patch = (user: TestCustomer, path: string, body: object) =>
    http().patch(`/api/v1${path}`).set('Authorization', `Bearer ${user.token}`).send(body);
  const remove = (user: TestCustomer, path: string) => http().delete(`/api/v1${path}`).set('Authorization', `Bearer ${user.token}`);

  return { subject, base, staff, patch, remove, upload, model, subscribe, customer, create, list, statuses, close: () => subject.close() };
}

export type NetworksWorld = Awaited<ReturnType<typeof networksWorld>>;

import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Plan, UploadResponse } from '@meshwork/contracts';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';
import { UserDirectory } from '../identity';
import { EntitlementsQuery } from '../networks/application/entitlements.query';
import { registerAccount, registerCustomer } from '@meshwork/testkit/api/accounts';
import { freePort } from '@meshwork/testkit/browser';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

/**
 * Issue 32: the catalog alone records which models a plan opens, so a model's access change
 * is in the user object, the plan's allowed_models and the entitlement document as soon as
 * the command returns, which waits for the catalog's read model alone (no eventually here).
 */
describe('a model’s access change, read from the catalog’s one record', () => {
  let subject: TestApp;
  let base: string;
  let staffToken: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000', PUBLIC_URL: base });
    await subject.app.listen(port, '127.0.0.1');
    staffToken = (await registerAccount(subject.app, 'staff', randomUUID().slice(0, 8), true)).tokens.access;
  });
  afterAll(() => subject.close());

  async function upload(plans: string[]): Promise<UploadResponse> {
    const name = `model_${randomUUID().slice(0, 8)}`;
    const data = randomBytes(1_000);
    const form = uploadForm(
      {
        name,
        display_name: name,
        version: '1.0.0',
        allowed_plans: JSON.stringify(plans),
        checksums: JSON.stringify({ 'block-0.onnx': sha256(data) }),
      },
      [{ name: 'block-0.onnx', data }],
    );
    const response = await fetch(`${base}/api/v1/models/admin/upload/`, {
      method: 'POST',
      body: form,
      headers: { Authorization: `Bearer ${staffToken}` },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as UploadResponse;
  }

  const freePlanModels = async () =>
    ((await request(subject.app.getHttpServer()).get('/api/v1/subscriptions/plans/').expect(200)).body as Plan[]).find(
      (p) => p.id === 'free',
    )!.allowed_models;

  it('opened to the free plan: in a free user’s object, the free plan’s allowed_models and their entitlements at once', async () => {
    const user = await registerCustomer(subject.app);
    const model = await upload(['pro']);
    const seen = async () => ({
      user: (await subject.app.get(UserDirectory).findById(user.userId))!.allowed_models.includes(model.model_name),
      plan: (await freePlanModels()).includes(model.model_name),
      device: (await subject.app.get(EntitlementsQuery).forUser(user.userId)).models.some((m) => m.name === model.model_name),
    });
    expect(await seen()).toEqual({ user: false, plan: false, device: false });

    await request(subject.app.getHttpServer())
      .put(`/api/v1/models/admin/${model.model_id}/access/`)
      .set({ Authorization: `Bearer ${staffToken}` })
      .send({ allowed_plans: ['free', 'pro'] })
      .expect(200);
    expect(await seen()).toEqual({ user: true, plan: true, device: true });
  });
});

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type UploadResponse, verifyEntitlementToken } from '@meshwork/contracts';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';
import { eventually } from '@meshwork/testkit/eventually';
import { registerAccount, registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { freePort } from '@meshwork/testkit/browser';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { buildEntitlementDocument } from '../domain/entitlement-document';
import { EntitlementSigner } from '../infrastructure/entitlement-signer';
import { EntitlementsQuery } from './entitlements.query';

/** Issue 12, section 3: the query, the builder and the signer on real PostgreSQL give a document the host's verifier accepts. */
describe('a user’s signed entitlements', () => {
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
    const data = randomBytes(5_000);
    const form = uploadForm(
      {
        name,
        display_name: `Model ${name}`,
        version: '1.2.0',
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

  async function proSubscriber(): Promise<TestCustomer> {
    const user = await registerCustomer(subject.app);
    const created = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
    await user.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
    return user;
  }

  /** What the devices helper's GET /devices/entitlements/ will do: gather, build, sign. */
  async function signedFor(user: TestCustomer, now: Date) {
    const { plan, models } = await subject.app.get(EntitlementsQuery).forUser(user.userId);
    const network = {
      id: randomUUID(),
      name: 'Office',
      role: 'host' as const,
      model: models[0]?.name ?? 'none',
      status: 'active' as const,
    };
    const document = buildEntitlementDocument({
      issuer: base,
      deviceId: randomUUID(),
      userId: user.userId,
      plan,
      models,
      networks: [network],
      now,
      seq: 7,
    });
    return subject.app.get(EntitlementSigner).sign(document);
  }

  it('gives a Pro subscriber Pro’s limits and Pro’s models, each with the SHA-256 of the manifest the api serves', async () => {
    const proModel = await upload(['pro']);
    const freeModel = await upload(['free', 'pro']);
    const user = await proSubscriber();
    await eventually(async () => (await user.get('/plan/').expect(200)).body.plan_slug === 'pro', 'the Pro plan in the read model');

    const now = new Date();
    const keys = (await (await fetch(`${base}/api/v1/devices/keys/`)).json()) as unknown;
    const verdict = await verifyEntitlementToken(await signedFor(user, now), keys, now, { issuer: base });
    if (verdict.status !== 'valid') throw new Error(`rejected: ${JSON.stringify(verdict)}`);
    const { document } = verdict;

    expect(document.user_id).toBe(user.userId);
    expect(document.plan).toMatchObject({ slug: 'pro', name: 'Pro', max_networks: 5, max_clients_per_network: 10, download_access: true });
    expect(document.plan.expires_at).toEqual(expect.any(String));
    expect(document.networks[0]).toMatchObject({ role: 'host', max_clients: 10 });
    const mine = document.models.filter((m) => [proModel.model_name, freeModel.model_name].includes(m.name));
    expect(mine.map((m) => m.name).sort()).toEqual([proModel.model_name, freeModel.model_name].sort());
    for (const model of mine) {
      const served = await user.get(`/models/${model.name}/manifest/`).expect(200);
      expect(model.version).toBe('1.2.0');
      expect(model.manifest_sha256).toBe(createHash('sha256').update(served.text, 'utf8').digest('hex'));
    }
  });

  it('gives a Free user Free’s limits and no Pro-only model', async () => {
    const proOnly = await upload(['pro']);
    const user = await registerCustomer(subject.app);
    const now = new Date();
    const keys = (await (await fetch(`${base}/api/v1/devices/keys/`)).json()) as unknown;
    const verdict = await verifyEntitlementToken(await signedFor(user, now), keys, now);
    if (verdict.status !== 'valid') throw new Error(`rejected: ${JSON.stringify(verdict)}`);
    expect(verdict.document.plan).toMatchObject({ slug: 'free', max_networks: 1, max_clients_per_network: 2, expires_at: null });
    expect(verdict.document.models.map((m) => m.name)).not.toContain(proOnly.model_name);
  });
});

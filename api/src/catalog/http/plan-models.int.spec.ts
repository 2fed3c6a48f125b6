import { randomBytes, randomUUID } from 'node:crypto';
import type { AdminModel, AdminPlan, AvailableModel, UploadResponse } from '@meshwork/contracts';
import { eventually } from '@meshwork/testkit/eventually';
import { registerAccount, registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { freePort } from '@meshwork/testkit/browser';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { sha256, uploadForm } from '@meshwork/testkit/api/upload-kit';

/** Issue 11, section 6: a plan staff made carries models like the seeded three, checked against the plan list. */
describe('models for staff-made plans', () => {
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

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${base}/api/v1${path}`, { ...init, headers: { Authorization: `Bearer ${staffToken}`, ...(init.headers ?? {}) } });
  const send = (method: string, body: unknown): RequestInit => ({
    method,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
  });
  const plansOf = async (modelId: string) => ((await (await api(`/models/admin/${modelId}/`)).json()) as AdminModel).allowedPlans;

  async function createPlan(name: string): Promise<string> {
    const created = await api('/admin-panel/plans', send('POST', { name, price: 19, max_clients: 5, max_networks: 2 }));
    expect(created.status).toBe(201);
    return ((await created.json()) as AdminPlan).id;
  }

  async function upload(plans: string[]) {
    const name = `model_${randomUUID().slice(0, 8)}`;
    const data = randomBytes(20_000);
    const form = uploadForm(
      {
        name,
        display_name: `Model ${name}`,
        version: '1.0.0',
        allowed_plans: JSON.stringify(plans),
        checksums: JSON.stringify({ 'weights.onnx': sha256(data) }),
      },
      [{ name: 'weights.onnx', data }],
    );
    const response = await api('/models/admin/upload/', { method: 'POST', body: form });
    return { status: response.status, body: (await response.json()) as UploadResponse & { message?: string; errors?: object } };
  }

  async function subscriber(planId: string): Promise<TestCustomer> {
    const user = await registerCustomer(subject.app);
    const created = await user.post('/subscriptions/create/', { plan_id: planId }).expect(201);
    await user.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
    return user;
  }

  it('gives a staff-made plan models through the plan form and the matrix; its subscriber lists and downloads them', async () => {
    const team = await createPlan(`Team ${randomUUID().slice(0, 6)}`);
    const byForm = (await upload(['pro'])).body;
    const byMatrix = (await upload(['pro'])).body;

    const saved = await api(`/admin-panel/plans/${team}`, send('PUT', { allowed_models: [byForm.model_name] }));
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as AdminPlan).allowed_models).toEqual([byForm.model_name]);
    expect(await plansOf(byForm.model_id)).toEqual(['pro', team]);

    const matrix = await api('/models/admin/access/', send('POST', { matrix: { [`${byMatrix.model_id}:${team}`]: true } }));
    expect(matrix.status).toBe(200);
    expect(await plansOf(byMatrix.model_id)).toEqual(['pro', team]); // pro, not named, stays
    // Both edit the same access: the plan form reads what the matrix set.
    const plan = (await (await api(`/admin-panel/plans/${team}`)).json()) as AdminPlan;
    expect([...plan.allowed_models].sort()).toEqual([byForm.model_name, byMatrix.model_name].sort());

    const user = await subscriber(team);
    const listed = ((await user.get('/models/').expect(200)).body as AvailableModel[]).map((m) => m.name);
    expect(listed.sort()).toEqual([byForm.model_name, byMatrix.model_name].sort());
    await eventually(
      async () => ((await user.get('/profile/').expect(200)).body.allowed_models as string[]).length === 2,
      'both models in the user object',
    );
    await user.get(`/models/${byMatrix.model_name}/manifest/`).expect(200);
    const link = (await user.get(`/models/${byForm.model_name}/files/weights.onnx/download/`).expect(200)).body;
    const downloaded = Buffer.from(await (await fetch(link.url)).arrayBuffer());
    expect(sha256(downloaded)).toBe(link.sha256);

    // Unticked in the matrix, the model leaves the plan and its subscriber.
    await api('/models/admin/access/', send('POST', { matrix: { [`${byMatrix.model_id}:${team}`]: false } }));
    await user.get(`/models/${byMatrix.model_name}/manifest/`).expect(403);
  });

  it('refuses an unknown or archived plan slug wherever staff set access, naming it and changing nothing', async () => {
    const model = (await upload(['pro'])).body;
    const archived = await createPlan(`Gone ${randomUUID().slice(0, 6)}`);
    await api(`/admin-panel/plans/${archived}`, { method: 'DELETE' });

    const refused = await upload(['pro', 'no-such-plan']);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'There is no plan "no-such-plan".', errors: { allowed_plans: expect.any(Array) } });
    const resumable = await api(
      '/models/admin/uploads/',
      send('POST', {
        name: `model_${randomUUID().slice(0, 8)}`,
        display_name: 'x',
        version: '1.0.0',
        allowed_plans: [archived],
        files: [{ name: 'weights.onnx', size: 10, sha256: 'a'.repeat(64) }],
      }),
    );
    expect(resumable.status).toBe(400);
    expect(await resumable.json()).toMatchObject({ message: `There is no plan "${archived}".` });

    const access = await api(`/models/admin/${model.model_id}/access/`, send('PUT', { allowed_plans: ['pro', archived] }));
    expect(access.status).toBe(400);
    const matrix = await api('/models/admin/access/', send('POST', { matrix: { [`${model.model_id}:nope`]: true } }));
    expect(matrix.status).toBe(400);
    expect(await matrix.json()).toMatchObject({ message: 'There is no plan "nope".' });
    expect(await plansOf(model.model_id)).toEqual(['pro']);
  });

  it('keeps an archived plan on its models: its subscribers keep them, and a later change leaves it', async () => {
    const seasonal = await createPlan(`Seasonal ${randomUUID().slice(0, 6)}`);
    const model = (await upload(['pro', seasonal])).body;
    expect(model.allowed_plans).toEqual(['pro', seasonal]);
    await api(`/admin-panel/plans/${seasonal}`, { method: 'DELETE' });

    // The matrix no longer has its column: saving the others leaves it.
    await api('/models/admin/access/', send('POST', { matrix: { [`${model.model_id}:free`]: true, [`${model.model_id}:pro`]: false } }));
    expect(await plansOf(model.model_id)).toEqual([seasonal, 'free']);
    const kept = await api(`/models/admin/${model.model_id}/access/`, send('PUT', { allowed_plans: [seasonal] }));
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as AdminModel).allowedPlans).toEqual([seasonal]);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { Client } from 'minio';
import type { AdminModel, AdminPlan, ResumableUpload, UploadResponse } from '@meshwork/contracts';
import { eventually } from '@meshwork/testkit/eventually';
import { Register } from '../../identity/application/register.handler';
import { registerCustomer, type TestCustomer, TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { freePort } from '@meshwork/testkit/browser';
import { required } from '@meshwork/testkit/infra';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { FailModelUpload } from '../application/fail-model-upload.handler';
import { StorageSweeper } from '../application/storage-sweeper';
import { leftUnder, minioClient, sha256, storageProxy, streamUpload, uploadForm } from '@meshwork/testkit/api/upload-kit';

/** Model uploads, access and downloads against real MinIO and PostgreSQL, over real HTTP. */
describe('AI models: uploads to MinIO, plan access, downloads', () => {
  let subject: TestApp;
  let base: string;
  let staffToken: string;
  let minio: Client;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000', PUBLIC_URL: base });
    await subject.app.listen(port, '127.0.0.1');
    const tag = randomUUID().slice(0, 8);
    const staff = await subject.app
      .get(CommandBus)
      .execute(new Register(`staff-${tag}@example.com`, `staff_${tag}`, TEST_PASSWORD, true, new Date()));
    staffToken = staff.tokens.access;
    minio = minioClient();
  });
  afterAll(() => subject.close());

  const api = (path: string, init: RequestInit = {}, token = staffToken) =>
    fetch(`${base}/api/v1${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
  const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  const modelName = () => `model_${randomUUID().slice(0, 8)}`;

  async function upload(fields: Record<string, string>, files: { name: string; data: Buffer }[]) {
    const response = await api('/models/admin/upload/', { method: 'POST', body: uploadForm(fields, files) });
    return {
      status: response.status,
      body: (await response.json()) as UploadResponse & { message?: string; validation_errors?: unknown[] },
    };
  }

  /** Uploads a model of two small files open to `plans`. */
  async function uploadModel(plans: string[], name = modelName()) {
    const files = [
      { name: 'weights.onnx', data: randomBytes(70_000) },
      { name: 'config.json', data: Buffer.from('{"layers": 2}') },
    ];
    const result = await upload(
      {
        name,
        display_name: `Model ${name}`,
        description: 'A small test model',
        version: '1.0.0',
        allowed_plans: JSON.stringify(plans),
        checksums: JSON.stringify(Object.fromEntries(files.map((f) => [f.name, sha256(f.data)]))),
        parameters: '7B',
        architecture: 'llama',
      },
      files,
    );
    expect(result.status).toBe(201);
    return { ...result.body, files };
  }

  /** The ids of every model whose upload started under this name (failed ones included). */
  async function modelIdsNamed(name: string): Promise<string[]> {
    const { rows } = await subject.db.pool.query(
      "SELECT stream_id FROM es_events WHERE type = 'ModelUploadStarted' AND data->'model'->>'name' = $1",
      [name],
    );
    return rows.map((r) => String(r.stream_id).slice('model-'.length));
  }

  /**
   * An upload cut off mid-stream has no one to answer, so its failure reaches the read model
   * and storage after the client is gone: wait (bounded) for both, then say what is left.
   */
  async function nothingLeftFor(name: string): Promise<void> {
    const ids = await modelIdsNamed(name);
    expect(ids.length).toBeGreaterThan(0);
    const listed = async () => ((await (await api('/models/admin/')).json()) as { models: AdminModel[] }).models.map((m) => m.name);
    const objectsLeft = async () => (await Promise.all(ids.map((id) => leftUnder(minio, subject.bucket, `models/${id}/`)))).flat();
    await eventually(
      async () => !(await listed()).includes(name) && (await objectsLeft()).length === 0,
      'the failed upload to be cleared',
    ).catch(() => undefined);
    expect(await objectsLeft()).toEqual([]);
    expect(await listed()).not.toContain(name);
  }

  async function proCustomer(): Promise<TestCustomer> {
    const user = await registerCustomer(subject.app);
    const created = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
    await user.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
    return user;
  }

  describe('simple upload (multipart form, streamed)', () => {
    it('stores every file in MinIO, checks each SHA-256, and publishes the model', async () => {
      const name = modelName();
      const model = await uploadModel(['pro', 'enterprise'], name);
      expect(model).toMatchObject({
        model_name: name,
        display_name: `Model ${name}`,
        status: 'active',
        total_size: 70_000 + 13,
        parts_count: 2,
        allowed_plans: ['pro', 'enterprise'],
      });
      expect((await leftUnder(minio, subject.bucket, `models/${model.model_id}/`)).sort()).toEqual([
        `models/${model.model_id}/config.json`,
        `models/${model.model_id}/weights.onnx`,
      ]);
      const listed = (await (await api(`/models/admin/${model.model_id}/`)).json()) as AdminModel;
      expect(listed).toMatchObject({
        name,
        version: '1.0.0',
        status: 'active',
        fileName: 'weights.onnx',
        fileType: 'ONNX',
        fileSize: 70_013,
        allowedPlans: ['pro', 'enterprise'],
        metadata: { description: 'A small test model', parameters: '7B', architecture: 'llama' },
        uploadedBy: expect.stringMatching(/^staff_/),
      });
      expect(listed.files.map((f) => [f.name, f.sha256, f.part_index])).toEqual([
        ['weights.onnx', sha256(model.files[0]!.data), 0],
        ['config.json', sha256(model.files[1]!.data), 1],
      ]);
    });

    it('takes the fields in any order: checksums after the files, as the spec lists them, and a name last', async () => {
      const name = modelName();
      const files = [
        { name: 'weights.onnx', data: randomBytes(40_000) },
        { name: 'config.json', data: Buffer.from('{"layers": 1}') },
      ];
      const form = new FormData();
      form.append('display_name', 'Fields last');
      form.append('version', '1.0.0');
      form.append('allowed_plans', '["pro"]');
      for (const file of files) form.append('files', new Blob([new Uint8Array(file.data)]), file.name);
      form.append('checksums', JSON.stringify(Object.fromEntries(files.map((f) => [f.name, sha256(f.data)]))));
      form.append('name', name);
      const response = await api('/models/admin/upload/', { method: 'POST', body: form });
      expect(response.status).toBe(201);
      const model = (await response.json()) as UploadResponse;
      expect(model).toMatchObject({ model_name: name, display_name: 'Fields last', status: 'active', parts_count: 2 });
      expect((await leftUnder(minio, subject.bucket, `models/${model.model_id}/`)).sort()).toEqual([
        `models/${model.model_id}/config.json`,
        `models/${model.model_id}/weights.onnx`,
      ]);

      // Checksums after the files still decide: a wrong one fails the upload and keeps nothing.
      const refused = new FormData();
      const other = modelName();
      for (const [key, value] of Object.entries({ name: other, display_name: 'Wrong', version: '1.0.0', allowed_plans: '["pro"]' }))
        refused.append(key, value);
      refused.append('files', new Blob([new Uint8Array(files[0]!.data)]), 'weights.onnx');
      refused.append('checksums', JSON.stringify({ 'weights.onnx': sha256(Buffer.from('other')) }));
      const answer = await api('/models/admin/upload/', { method: 'POST', body: refused });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        validation_errors: [{ file: 'weights.onnx', error: 'Checksum does not match the file received' }],
      });
      await nothingLeftFor(other);
    });

    it('answers bad fields and bad files with the spec’s messages, keeping nothing', async () => {
      const blank = await upload({ name: ' ', display_name: 'x', version: '1.0.0', allowed_plans: '["pro"]', checksums: '{}' }, [
        { name: 'a.onnx', data: Buffer.from('a') },
      ]);
      expect(blank).toMatchObject({ status: 400, body: { message: 'Model name is required' } });
      const noPlan = await upload({ name: modelName(), display_name: 'x', version: '1.0.0', allowed_plans: '[]', checksums: '{}' }, [
        { name: 'a.onnx', data: Buffer.from('a') },
      ]);
      expect(noPlan.body.message).toBe('At least one plan must be selected');

      const name = modelName();
      const good = Buffer.from('good');
      const files = await upload(
        {
          name,
          display_name: 'Bad files',
          version: '1.0.0',
          allowed_plans: '["free"]',
          checksums: JSON.stringify({ 'good.onnx': sha256(good), 'notes.txt': sha256(good) }),
        },
        [
          { name: 'good.onnx', data: good },
          { name: 'notes.txt', data: good },
          { name: 'good.onnx', data: good },
          { name: 'unsigned.bin', data: good },
        ],
      );
      expect(files.status).toBe(400);
      expect(files.body.validation_errors).toEqual([
        { file: 'notes.txt', error: 'File type .txt not supported. Accepted: .onnx, .bin, .safetensors, .json' },
        { file: 'good.onnx', error: 'File already added' },
        { file: 'unsigned.bin', error: 'Missing checksums for: unsigned.bin' },
      ]);
      await nothingLeftFor(name);
    });

    it('refuses a checksum mismatch, leaves nothing behind, and frees the name', async () => {
      const name = modelName();
      const data = randomBytes(50_000);
      const result = await upload(
        {
          name,
          display_name: 'Mismatch',
          version: '1.0.0',
          allowed_plans: '["pro"]',
          checksums: JSON.stringify({ 'w.onnx': sha256(Buffer.from('other')) }),
        },
        [{ name: 'w.onnx', data }],
      );
      expect(result).toMatchObject({
        status: 400,
        body: { validation_errors: [{ file: 'w.onnx', error: 'Checksum does not match the file received' }] },
      });
      await nothingLeftFor(name);
      await uploadModel(['pro'], name); // the name is free again
    });

    it('a dropped connection mid-upload leaves no model and no object or multipart part', async () => {
      const name = modelName();
      const result = await streamUpload({
        url: `${base}/api/v1/models/admin/upload/`,
        token: staffToken,
        fields: {
          name,
          display_name: 'Dropped',
          version: '1.0.0',
          allowed_plans: '["pro"]',
          checksums: JSON.stringify({ 'big.bin': 'a'.repeat(64) }),
        },
        fileName: 'big.bin',
        size: 48 * 1024 * 1024,
        midway: (request) => request.destroy(),
      });
      expect(result).toBe('dropped');
      await eventually(
        async () => (await modelIdsNamed(name)).length > 0 && (await failedUploads(name)) > 0,
        'the dropped upload to be failed',
      );
      await nothingLeftFor(name);
    });

    it('storage failing mid-upload gives a clear error; nothing is left once it answers again', async () => {
      // An api whose way to MinIO is cut halfway through (MinIO itself keeps serving the other tests).
      const proxy = await storageProxy(new URL(required('S3_ENDPOINT')));
      const port = await freePort();
      const cutOff = await startTestApp({ STRIPE_SECRET_KEY: '', S3_ENDPOINT: proxy.url }, subject);
      await cutOff.app.listen(port, '127.0.0.1');
      try {
        const name = modelName();
        const result = await streamUpload({
          url: `http://127.0.0.1:${port}/api/v1/models/admin/upload/`,
          token: staffToken,
          fields: {
            name,
            display_name: 'Storage down',
            version: '1.0.0',
            allowed_plans: '["pro"]',
            checksums: JSON.stringify({ 'big.bin': 'a'.repeat(64) }),
          },
          fileName: 'big.bin',
          size: 96 * 1024 * 1024,
          midway: () => proxy.cut(),
        });
        expect(result).toEqual({
          status: 503,
          body: { message: 'File storage is unavailable, so nothing was saved. Please try again shortly.' },
        });
        // What was written before the cut could not be removed then: it is marked for the sweeper.
        const [id] = await modelIdsNamed(name);
        const pending = await subject.db.pool.query('SELECT object_key, abandoned FROM catalog_pending_objects WHERE model_id = $1', [id]);
        expect(pending.rows).toEqual([{ object_key: `models/${id}/big.bin`, abandoned: true }]);
        // Storage answers again (the first api reaches MinIO directly): the sweeper removes it all.
        await subject.app.get(StorageSweeper).sweep(new Date());
        expect(
          (await subject.db.pool.query('SELECT count(*)::int AS n FROM catalog_pending_objects WHERE model_id = $1', [id])).rows[0].n,
        ).toBe(0);
        await nothingLeftFor(name);
      } finally {
        await cutOff.close();
        await proxy.close();
      }
    });
  });

  async function failedUploads(name: string): Promise<number> {
    const ids = await modelIdsNamed(name);
    const { rows } = await subject.db.pool.query(
      "SELECT count(*)::int AS n FROM es_events WHERE type = 'ModelProcessingFailed' AND stream_id = ANY($1)",
      [ids.map((id) => `model-${id}`)],
    );
    return rows[0].n;
  }

  describe('resumable upload (S3 multipart, presigned part URLs)', () => {
    it('survives an interrupted part and resumes where it stopped', async () => {
      const name = modelName();
      const big = randomBytes(40 * 1024 * 1024); // three parts of 16 MiB
      const small = Buffer.from('{"tokenizer": true}');
      const started = await api(
        '/models/admin/uploads/',
        json({
          name,
          display_name: 'Resumed',
          version: '2.0.0',
          allowed_plans: ['pro'],
          files: [
            { name: 'model.safetensors', size: big.length, sha256: sha256(big) },
            { name: 'tokenizer.json', size: small.length, sha256: sha256(small) },
          ],
        }),
      );
      expect(started.status).toBe(201);
      const session = (await started.json()) as ResumableUpload;
      expect(session.files).toEqual([
        { name: 'model.safetensors', size: big.length, parts: 3, uploaded_parts: [] },
        { name: 'tokenizer.json', size: small.length, parts: 1, uploaded_parts: [] },
      ]);
      const sendPart = async (file: string, part: number, data: Buffer, signal?: AbortSignal) => {
        const { url } = (await (await api(`/models/admin/uploads/${session.upload_id}/parts/`, json({ file, part }))).json()) as {
          url: string;
        };
        const slice = data.subarray((part - 1) * session.part_size, part * session.part_size);
        const response = await fetch(url, { method: 'PUT', body: new Uint8Array(slice), signal });
        expect(response.status).toBe(200);
      };
      await sendPart('model.safetensors', 1, big);
      // The network drops as part 2 is sent: none of it arrives.
      const cut = new AbortController();
      cut.abort();
      await expect(sendPart('model.safetensors', 2, big, cut.signal)).rejects.toThrow();
      const early = await api(`/models/admin/uploads/${session.upload_id}/complete/`, { method: 'POST' });
      expect(early.status).toBe(400); // parts missing: nothing is published, the upload stays open

      const resumed = (await (await api(`/models/admin/uploads/${session.upload_id}/`)).json()) as ResumableUpload;
      expect(resumed.files[0]!.uploaded_parts).toEqual([1]);
      for (const part of [2, 3]) await sendPart('model.safetensors', part, big);
      await sendPart('tokenizer.json', 1, small);
      const completed = await api(`/models/admin/uploads/${session.upload_id}/complete/`, { method: 'POST' });
      expect(completed.status).toBe(201);
      expect(await completed.json()).toMatchObject({
        model_name: name,
        status: 'active',
        total_size: big.length + small.length,
        parts_count: 2,
      });

      const user = await proCustomer();
      const link = (await user.get(`/models/${name}/files/model.safetensors/download/`).expect(200)).body;
      const downloaded = Buffer.from(await (await fetch(link.url)).arrayBuffer());
      expect(sha256(downloaded)).toBe(sha256(big));
    });

    it('fails an upload left unfinished for a day: its parts go, the session ends and the name is free', async () => {
      const name = modelName();
      const data = randomBytes(20 * 1024 * 1024);
      const started = await api(
        '/models/admin/uploads/',
        json({
          name,
          display_name: 'Left',
          version: '1.0.0',
          allowed_plans: ['pro'],
          files: [{ name: 'w.bin', size: data.length, sha256: sha256(data) }],
        }),
      );
      const session = (await started.json()) as ResumableUpload;
      const { url } = (await (await api(`/models/admin/uploads/${session.upload_id}/parts/`, json({ file: 'w.bin', part: 1 }))).json()) as {
        url: string;
      };
      expect((await fetch(url, { method: 'PUT', body: new Uint8Array(data.subarray(0, session.part_size)) })).status).toBe(200);
      const listed = async () => ((await (await api('/models/admin/')).json()) as { models: AdminModel[] }).models;
      expect((await listed()).find((m) => m.id === session.model_id)).toMatchObject({ status: 'processing' });

      await subject.app.get(StorageSweeper).sweep(new Date()); // not a day old yet: kept
      expect((await api(`/models/admin/uploads/${session.upload_id}/`)).status).toBe(200);
      await subject.app.get(StorageSweeper).sweep(new Date(Date.now() + StorageSweeper.STALE_AFTER_MS + 60_000));

      expect((await listed()).some((m) => m.id === session.model_id)).toBe(false);
      expect((await api(`/models/admin/uploads/${session.upload_id}/`)).status).toBe(404);
      expect(await leftUnder(minio, subject.bucket, `models/${session.model_id}/`)).toEqual([]);
      expect(await failedUploads(name)).toBe(1);
      await uploadModel(['pro'], name); // the name is free again
    });

    it('a late failure (the sweeper or a cancel racing a completion) leaves a published model and its files alone', async () => {
      const name = modelName();
      const model = await uploadModel(['pro'], name);
      const keys = model.files.map((f) => `models/${model.model_id}/${f.name}`);
      await subject.app.get(CommandBus).execute(new FailModelUpload(model.model_id, name, keys, 'raced', new Date()));
      expect((await leftUnder(minio, subject.bucket, `models/${model.model_id}/`)).sort()).toEqual([...keys].sort());
      const one = (await (await api(`/models/admin/${model.model_id}/`)).json()) as AdminModel;
      expect(one).toMatchObject({ name, status: 'active' });
      expect(await failedUploads(name)).toBe(0);
    });

    it('refuses a file whose bytes do not match its SHA-256 at completion, and removes it', async () => {
      const name = modelName();
      const data = randomBytes(1000);
      const started = (await (
        await api(
          '/models/admin/uploads/',
          json({
            name,
            display_name: 'Bad',
            version: '1',
            allowed_plans: ['pro'],
            files: [{ name: 'x.bin', size: 1000, sha256: 'b'.repeat(64) }],
          }),
        )
      ).json()) as ResumableUpload;
      const { url } = (await (await api(`/models/admin/uploads/${started.upload_id}/parts/`, json({ file: 'x.bin', part: 1 }))).json()) as {
        url: string;
      };
      expect((await fetch(url, { method: 'PUT', body: new Uint8Array(data) })).status).toBe(200);
      const completed = await api(`/models/admin/uploads/${started.upload_id}/complete/`, { method: 'POST' });
      expect(completed.status).toBe(400);
      expect(await completed.json()).toMatchObject({
        validation_errors: [{ file: 'x.bin', error: 'Checksum does not match the file received' }],
      });
      await nothingLeftFor(name);
    });
  });

  describe('access and downloads', () => {
    it('refuses a Free user a Pro-only model’s manifest and download; a Pro user gets both', async () => {
      const model = await uploadModel(['pro']);
      const free = await registerCustomer(subject.app);
      await free.get(`/models/${model.model_name}/manifest/`).expect(403, { message: 'Your plan does not include this model.' });
      await free.get(`/models/${model.model_name}/files/weights.onnx/download/`).expect(403);
      expect((await free.get('/models/').expect(200)).body.map((m: { name: string }) => m.name)).not.toContain(model.model_name);
      expect((await free.get('/plan/').expect(200)).body.available_models.map((m: { name: string }) => m.name)).not.toContain(
        model.model_name,
      );

      const pro = await proCustomer();
      const available = (await pro.get('/plan/').expect(200)).body.available_models;
      expect(available).toContainEqual({
        name: model.model_name,
        display_name: model.display_name,
        description: 'A small test model',
        version: '1.0.0',
        file_size: 70_013,
        block_count: 1, // its one ONNX file; config.json is not a block
      });
      const manifest = (await pro.get(`/models/${model.model_name}/manifest/`).expect(200)).body;
      expect(manifest.files).toEqual([
        expect.objectContaining({ name: 'weights.onnx', size: 70_000, sha256: sha256(model.files[0]!.data), part_index: 0 }),
        expect.objectContaining({ name: 'config.json', size: 13, part_index: 1 }),
      ]);
    });

    it('serves downloads by presigned URL with HTTP Range, so a broken download resumes and verifies', async () => {
      const model = await uploadModel(['pro']);
      const pro = await proCustomer();
      const link = (await pro.get(`/models/${model.model_name}/files/weights.onnx/download/`).expect(200)).body;
      expect(link).toMatchObject({ size: 70_000, sha256: sha256(model.files[0]!.data), expires_at: expect.any(String) });
      const first = await fetch(link.url, { headers: { Range: 'bytes=0-29999' } });
      expect(first.status).toBe(206);
      const rest = await fetch(link.url, { headers: { Range: 'bytes=30000-' } });
      expect(rest.status).toBe(206);
      const whole = Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
      expect(sha256(whole)).toBe(link.sha256);
      const history = (await pro.get('/downloads/history/').expect(200)).body;
      expect(history.downloads[0]).toMatchObject({
        kind: 'model',
        version: `${model.model_name}@1.0.0`,
        fileSize: 70_000,
        status: 'completed',
      });
    });

    it('gives the matrix and per-model access, status and deletion, each in the audit log with the staff member', async () => {
      const model = await uploadModel(['pro']);
      const matrix = await api(
        '/models/admin/access/',
        json({ matrix: { [`${model.model_id}:free`]: true, [`${model.model_id}:pro`]: false } }),
      );
      expect(matrix.status).toBe(200);
      const after = ((await matrix.json()) as { models: AdminModel[] }).models.find((m) => m.id === model.model_id)!;
      expect(after.allowedPlans).toEqual(['free']);
      const free = await registerCustomer(subject.app);
      await free.get(`/models/${model.model_name}/manifest/`).expect(200);

      await api(`/models/admin/${model.model_id}/`, {
        method: 'PATCH',
        body: JSON.stringify({ status: 'inactive' }),
        headers: { 'Content-Type': 'application/json' },
      });
      await free.get(`/models/${model.model_name}/manifest/`).expect(404);
      expect((await api(`/models/admin/${model.model_id}/`, { method: 'DELETE' })).status).toBe(200);
      expect(await leftUnder(minio, subject.bucket, `models/${model.model_id}/`)).toEqual([]);

      const audit = (await (await api('/models/admin/audit/')).json()) as {
        action: string;
        resourceId: string;
        adminId: string | null;
        oldData: unknown;
        newData: unknown;
      }[];
      const mine = audit.filter((e) => e.resourceId === model.model_id).map((e) => e.action);
      expect(mine).toEqual(['DELETE', 'STATUS', 'BULK_UPDATE_ACCESS', 'UPLOAD']);
      // Every entry names the staff member, the multipart upload's included.
      for (const entry of audit.filter((e) => e.resourceId === model.model_id)) expect(entry.adminId).toEqual(expect.any(String));
      const access = audit.find((e) => e.resourceId === model.model_id && e.action === 'BULK_UPDATE_ACCESS')!;
      expect(access).toMatchObject({
        oldData: { allowedPlans: ['pro'] },
        newData: { allowedPlans: ['free'] },
        adminId: expect.any(String),
      });
      await free.get('/models/admin/').expect(403);
    });

    it('a plan’s allowed models are the catalog’s: the plan form changes each model’s plans, and signed-in users follow', async () => {
      const model = await uploadModel(['pro']);
      const plan = async (id: string) => (await (await api(`/admin-panel/plans/${id}`)).json()) as AdminPlan;
      const savePlan = (id: string, body: unknown) =>
        api(`/admin-panel/plans/${id}`, { method: 'PUT', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
      expect((await plan('pro')).allowed_models).toContain(model.model_name);
      expect((await plan('free')).allowed_models).not.toContain(model.model_name);
      const free = await registerCustomer(subject.app);
      // Read through the signed-in user's cached object, which must follow the catalog.
      const allowedToFree = async () => (await free.get('/profile/').expect(200)).body.allowed_models as string[];
      expect(await allowedToFree()).not.toContain(model.model_name);

      const freePlan = await plan('free');
      const saved = await savePlan('free', { ...freePlan, allowed_models: [...freePlan.allowed_models, model.model_name] });
      expect(saved.status).toBe(200);
      expect(((await saved.json()) as AdminPlan).allowed_models).toContain(model.model_name);
      expect(((await (await api(`/models/admin/${model.model_id}/`)).json()) as AdminModel).allowedPlans).toEqual(['pro', 'free']);
      await free.get(`/models/${model.model_name}/manifest/`).expect(200);
      await eventually(async () => (await allowedToFree()).includes(model.model_name), 'the model in the user object');
      const audit = (await (await api('/models/admin/audit/')).json()) as { action: string; resourceId: string; adminId: string | null }[];
      expect(audit.find((e) => e.resourceId === model.model_id)).toMatchObject({ action: 'ACCESS', adminId: expect.any(String) });

      // Taken off the plans' lists, it stays configured for the plan but is no longer the user's.
      await api(`/models/admin/${model.model_id}/`, {
        method: 'PATCH',
        body: JSON.stringify({ status: 'inactive' }),
        headers: { 'Content-Type': 'application/json' },
      });
      expect((await plan('free')).allowed_models).toContain(model.model_name);
      await eventually(async () => !(await allowedToFree()).includes(model.model_name), 'the model gone from the user object');

      // Unknown models are refused, changing nothing; a plan being created may be given models.
      const unknown = await savePlan('pro', { ...(await plan('pro')), allowed_models: ['no_such_model'] });
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({ errors: { allowed_models: ['There is no model named no_such_model.'] } });
      expect((await plan('pro')).allowed_models).toContain(model.model_name);
      const created = await api(
        '/admin-panel/plans',
        json({ name: `Team ${model.model_name}`, max_clients: 5, max_networks: 2, allowed_models: [model.model_name] }),
      );
      expect(created.status).toBe(201);
      const team = (await created.json()) as AdminPlan;
      expect(team.allowed_models).toEqual([model.model_name]);
      expect(((await (await api(`/models/admin/${model.model_id}/`)).json()) as AdminModel).allowedPlans).toEqual(['pro', 'free', team.id]);
    });
  });
});

import { randomUUID } from 'node:crypto';
import { EVERYONE, IDENTITY_CHANGED_CHANNEL } from '../../platform/database/notifications';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import type { ModelEvent } from '../domain/model.decider';
import { catalogProjection } from './catalog.projection';

const STAFF = { userId: 'staff-1', isStaff: true, ip: '10.0.0.1', userAgent: 'console' };
const model = (id: string, ...events: ModelEvent[]): StreamEvents => ({
  streamId: `model-${id}`,
  events: events.map((e) =>
    anEvent({ type: e.type, data: e.data, metadata: { correlationId: randomUUID(), causationId: null, actor: STAFF } }),
  ),
});

describe('catalog read model (events in, rows out)', () => {
  const catalog = projectionScenario(() => catalogProjection, { listen: IDENTITY_CHANGED_CHANNEL });

  it('a model uploaded, published and given to another plan: its row, files and audit entries, announced to every user', async () => {
    const id = randomUUID();
    const started: ModelEvent = {
      type: 'ModelUploadStarted',
      data: {
        modelId: id,
        model: { name: 'llama', displayName: 'Llama', description: '', version: '1', parameters: '1B', architecture: 'llama' },
        allowedPlans: ['pro'],
      },
    };
    const file: ModelEvent = {
      type: 'ModelFileStored',
      data: { name: 'weights.onnx', size: 10, sha256: 'a'.repeat(64), partIndex: 0, objectKey: `models/${id}/weights.onnx` },
    };
    const then = await catalog
      .given(model(id, started, file))
      .when(
        model(id, { type: 'ModelPublished', data: { totalSize: 10, partsCount: 1 } }),
        model(id, { type: 'ModelAccessChanged', data: { from: ['pro'], to: ['pro', 'free'], bulk: false } }),
      );
    expect(
      await then.rows(`SELECT name, status, allowed_plans, total_size, parts_count, uploaded_by FROM ${catalog.schema}.models`),
    ).toEqual([
      { name: 'llama', status: 'active', allowed_plans: ['pro', 'free'], total_size: '10', parts_count: 1, uploaded_by: 'staff-1' },
    ]);
    expect(await then.rows(`SELECT name, object_key FROM ${catalog.schema}.model_files`)).toEqual([
      { name: 'weights.onnx', object_key: `models/${id}/weights.onnx` },
    ]);
    expect(await then.rows(`SELECT action, details, actor_user_id, ip FROM ${catalog.schema}.audit ORDER BY position`)).toEqual([
      { action: 'UPLOAD', details: 'Uploaded 1 file(s), 10 bytes', actor_user_id: 'staff-1', ip: '10.0.0.1' },
      { action: 'ACCESS', details: 'Plan access: pro, free', actor_user_id: 'staff-1', ip: '10.0.0.1' },
    ]);
    // Applied in one batch, one transaction: PostgreSQL sends a repeated notification once.
    expect(then.announced).toEqual([EVERYONE]);
  });

  it('a model whose upload failed is gone, files and all', async () => {
    const id = randomUUID();
    const then = await catalog.given().when(
      model(
        id,
        {
          type: 'ModelUploadStarted',
          data: {
            modelId: id,
            model: { name: 'broken', displayName: 'Broken', description: '', version: '1', parameters: '1B', architecture: 'llama' },
            allowedPlans: ['free'],
          },
        },
        {
          type: 'ModelFileStored',
          data: { name: 'a.onnx', size: 1, sha256: 'b'.repeat(64), partIndex: 0, objectKey: `models/${id}/a.onnx` },
        },
        { type: 'ModelProcessingFailed', data: { reason: 'checksum mismatch', objectKeys: [`models/${id}/a.onnx`] } },
      ),
    );
    expect(await then.rows(`SELECT id FROM ${catalog.schema}.models`)).toEqual([]);
    expect(await then.rows(`SELECT name FROM ${catalog.schema}.model_files`)).toEqual([]);
    expect(then.announced).toEqual([]);
  });
});

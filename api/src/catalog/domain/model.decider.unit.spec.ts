import { given } from '../../platform/testing/given-when-then';
import { type ModelEvent, modelDecider, type StoredFile } from './model.decider';

const at = new Date('2026-03-01T10:00:00Z');
const model = { name: 'llama_tiny', displayName: 'Llama Tiny', description: '', version: '1.0.0', parameters: '1B', architecture: 'llama' };
const started: ModelEvent = { type: 'ModelUploadStarted', data: { modelId: 'm1', model, allowedPlans: ['pro'] } };
const file = (name: string, partIndex: number): StoredFile => ({
  name,
  size: 10,
  sha256: 'a'.repeat(64),
  partIndex,
  objectKey: `models/m1/${name}`,
});
const published: ModelEvent[] = [
  { type: 'ModelFileStored', data: file('a.onnx', 0) },
  { type: 'ModelFileStored', data: file('b.onnx', 1) },
  { type: 'ModelPublished', data: { totalSize: 20, partsCount: 2 } },
];
const live = [started, ...published];

describe('model decider', () => {
  it('starts an upload once, then publishes its files in part order', () => {
    given(modelDecider)
      .when({ type: 'StartUpload', at, modelId: 'm1', model, allowedPlans: ['pro'] })
      .then([started]);
    given(modelDecider, [started])
      .when({ type: 'StartUpload', at, modelId: 'm1', model, allowedPlans: ['pro'] })
      .thenThrows(/already exists/);
    given(modelDecider, [started])
      .when({ type: 'Publish', at, files: [file('b.onnx', 1), file('a.onnx', 0)] })
      .then(published);
    given(modelDecider, live)
      .when({ type: 'Publish', at, files: [file('a.onnx', 0)] })
      .then([]);
  });

  it('fails an upload in progress, naming what storage must drop; a published model cannot fail', () => {
    given(modelDecider, [started])
      .when({ type: 'FailUpload', at, reason: 'checksum mismatch', objectKeys: ['models/m1/a.onnx'] })
      .then([{ type: 'ModelProcessingFailed', data: { reason: 'checksum mismatch', objectKeys: ['models/m1/a.onnx'] } }]);
    given(modelDecider, live).when({ type: 'FailUpload', at, reason: 'late', objectKeys: [] }).then([]);
    given(modelDecider, [started, { type: 'ModelProcessingFailed', data: { reason: 'x', objectKeys: [] } }])
      .when({ type: 'SetStatus', at, active: true })
      .thenThrows(/not found/);
  });

  it('deactivates and reactivates a published model, each once', () => {
    given(modelDecider, live)
      .when({ type: 'SetStatus', at, active: false })
      .then([{ type: 'ModelDeactivated', data: {} }]);
    given(modelDecider, [...live, { type: 'ModelDeactivated', data: {} }])
      .when({ type: 'SetStatus', at, active: true })
      .then([{ type: 'ModelReactivated', data: {} }]);
    given(modelDecider, live).when({ type: 'SetStatus', at, active: true }).then([]);
    given(modelDecider, [started])
      .when({ type: 'SetStatus', at, active: false })
      .thenThrows(/still being uploaded/);
  });

  it('changes plan access, recording before and after, only when it differs', () => {
    given(modelDecider, live)
      .when({ type: 'ChangeAccess', at, allowedPlans: ['pro', 'enterprise', 'pro'], bulk: true })
      .then([{ type: 'ModelAccessChanged', data: { from: ['pro'], to: ['pro', 'enterprise'], bulk: true } }]);
    given(modelDecider, live)
      .when({ type: 'ChangeAccess', at, allowedPlans: ['pro'], bulk: false })
      .then([]);
  });

  it('deletes with the keys of every stored file, once', () => {
    given(modelDecider, live)
      .when({ type: 'Delete', at })
      .then([{ type: 'ModelDeleted', data: { objectKeys: ['models/m1/a.onnx', 'models/m1/b.onnx'] } }]);
    given(modelDecider, [...live, { type: 'ModelDeleted', data: { objectKeys: [] } }])
      .when({ type: 'Delete', at })
      .thenThrows(/not found/);
  });
});

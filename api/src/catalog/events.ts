// The catalog context's events as other contexts read them: their types and stored names,
// nothing that runs. Any context may import this file.
import { eventTypesOf } from '../platform/domain/event-types';
import type { DownloadEvent } from './domain/download.decider';
import type { ModelEvent } from './domain/model.decider';
import type { ReleaseEvent } from './domain/release.decider';

export type { DownloadEvent, ModelEvent, ReleaseEvent };
export type ModelEventType = ModelEvent['type'];

/** Every model event type as stored (stream `model-<id>`). */
export const MODEL_EVENT_TYPES = eventTypesOf<ModelEvent>()([
  'ModelUploadStarted',
  'ModelFileStored',
  'ModelPublished',
  'ModelProcessingFailed',
  'ModelDeactivated',
  'ModelReactivated',
  'ModelAccessChanged',
  'ModelDeleted',
]);

/** Every desktop release event type as stored (stream `release-<id>`). */
export const RELEASE_EVENT_TYPES = eventTypesOf<ReleaseEvent>()([
  'ReleaseUploaded',
  'ReleaseMarkedStable',
  'ReleaseStableWithdrawn',
  'ReleaseActivated',
  'ReleaseDeactivated',
]);

/** Every download event type as stored. */
export const DOWNLOAD_EVENT_TYPES = eventTypesOf<DownloadEvent>()(['DownloadRecorded']);

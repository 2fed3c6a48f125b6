import type { ModelPlan } from '@meshwork/contracts';
import { type Decider, unreachable } from '../../platform/domain/decider';
import { conflict, notFound, ruleBroken } from '../../platform/domain/errors';

export interface ModelDescription {
  name: string;
  displayName: string;
  description: string;
  version: string;
  parameters: string;
  architecture: string;
}

export interface StoredFile {
  name: string;
  size: number;
  sha256: string;
  partIndex: number;
  objectKey: string;
}

export type ModelCommand =
  | { type: 'StartUpload'; at: Date; modelId: string; model: ModelDescription; allowedPlans: ModelPlan[] }
  | { type: 'Publish'; at: Date; files: StoredFile[] }
  | { type: 'FailUpload'; at: Date; reason: string; objectKeys: string[] }
  | { type: 'SetStatus'; at: Date; active: boolean }
  | { type: 'ChangeAccess'; at: Date; allowedPlans: ModelPlan[]; bulk: boolean }
  | { type: 'Delete'; at: Date };

export type ModelEvent =
  | { type: 'ModelUploadStarted'; data: { modelId: string; model: ModelDescription; allowedPlans: ModelPlan[] } }
  | { type: 'ModelFileStored'; data: StoredFile }
  | { type: 'ModelPublished'; data: { totalSize: number; partsCount: number } }
  | { type: 'ModelProcessingFailed'; data: { reason: string; objectKeys: string[] } }
  | { type: 'ModelDeactivated'; data: Record<string, never> }
  | { type: 'ModelReactivated'; data: Record<string, never> }
  | { type: 'ModelAccessChanged'; data: { from: ModelPlan[]; to: ModelPlan[]; bulk: boolean } }
  | { type: 'ModelDeleted'; data: { objectKeys: string[] } };

interface Known {
  modelId: string;
  model: ModelDescription;
  allowedPlans: ModelPlan[];
  files: StoredFile[];
}

export type ModelState =
  { status: 'none' } | ({ status: 'processing' | 'active' | 'inactive' } & Known) | ({ status: 'failed' | 'deleted' } & Known);

type LiveModel = { status: 'processing' | 'active' | 'inactive' } & Known;

function live(state: ModelState): LiveModel {
  if (state.status !== 'processing' && state.status !== 'active' && state.status !== 'inactive') throw notFound();
  return state as LiveModel;
}

const samePlans = (a: ModelPlan[], b: ModelPlan[]) => [...a].sort().join() === [...b].sort().join();

/**
 * An AI model: its upload (started, files stored, published; or failed, which removes its
 * files), its status, which plans may use it, and its deletion (files removed from storage).
 */
export const modelDecider: Decider<ModelCommand, ModelEvent, ModelState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'StartUpload':
        if (state.status !== 'none') throw conflict('This model already exists.');
        return [
          { type: 'ModelUploadStarted', data: { modelId: command.modelId, model: command.model, allowedPlans: command.allowedPlans } },
        ];
      case 'Publish': {
        const model = live(state);
        if (model.status !== 'processing') return [];
        const files = [...command.files].sort((a, b) => a.partIndex - b.partIndex);
        return [
          ...files.map((file): ModelEvent => ({ type: 'ModelFileStored', data: file })),
          { type: 'ModelPublished', data: { totalSize: files.reduce((sum, f) => sum + f.size, 0), partsCount: files.length } },
        ];
      }
      case 'FailUpload': {
        if (state.status !== 'processing') return [];
        return [{ type: 'ModelProcessingFailed', data: { reason: command.reason, objectKeys: command.objectKeys } }];
      }
      case 'SetStatus': {
        const model = live(state);
        if (model.status === 'processing') throw ruleBroken('The model is still being uploaded.');
        if ((model.status === 'active') === command.active) return [];
        return [{ type: command.active ? 'ModelReactivated' : 'ModelDeactivated', data: {} }];
      }
      case 'ChangeAccess': {
        const model = live(state);
        const to = [...new Set(command.allowedPlans)];
        if (samePlans(model.allowedPlans, to)) return [];
        return [{ type: 'ModelAccessChanged', data: { from: model.allowedPlans, to, bulk: command.bulk } }];
      }
      case 'Delete': {
        const model = live(state);
        return [{ type: 'ModelDeleted', data: { objectKeys: model.files.map((f) => f.objectKey) } }];
      }
      default:
        return unreachable(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ModelUploadStarted':
        return {
          status: 'processing',
          modelId: event.data.modelId,
          model: event.data.model,
          allowedPlans: event.data.allowedPlans,
          files: [],
        };
      case 'ModelFileStored': {
        const model = live(state);
        return { ...model, files: [...model.files, event.data] };
      }
      case 'ModelPublished':
        return { ...live(state), status: 'active' };
      case 'ModelProcessingFailed':
        return { ...live(state), status: 'failed' };
      case 'ModelDeactivated':
        return { ...live(state), status: 'inactive' };
      case 'ModelReactivated':
        return { ...live(state), status: 'active' };
      case 'ModelAccessChanged':
        return { ...live(state), allowedPlans: event.data.to };
      case 'ModelDeleted':
        return { ...live(state), status: 'deleted' };
      default:
        return unreachable(event);
    }
  },
};

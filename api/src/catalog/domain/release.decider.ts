import { type Decider, unreachable } from '../../platform/domain/decider';
import { notFound, ruleBroken } from '../../platform/domain/errors';

export interface ReleaseFile {
  version: string;
  releaseNotes: string;
  objectKey: string;
  fileName: string;
  size: number;
  sha256: string;
}

export type ReleaseCommand =
  | ({ type: 'UploadRelease'; at: Date } & ReleaseFile)
  | { type: 'MarkStable'; at: Date; stable: boolean }
  | { type: 'SetActive'; at: Date; active: boolean };

export type ReleaseEvent =
  | { type: 'ReleaseUploaded'; data: ReleaseFile }
  | { type: 'ReleaseMarkedStable'; data: { version: string } }
  | { type: 'ReleaseStableWithdrawn'; data: { version: string } }
  | { type: 'ReleaseActivated'; data: { version: string } }
  | { type: 'ReleaseDeactivated'; data: { version: string } };

export type ReleaseState = { status: 'none' } | { status: 'uploaded'; file: ReleaseFile; stable: boolean; active: boolean };

/**
 * A desktop host release: uploaded (inactive and not stable until staff say so), marked
 * stable, activated or deactivated. Customers get the newest active stable release.
 */
export const releaseDecider: Decider<ReleaseCommand, ReleaseEvent, ReleaseState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'UploadRelease') {
      if (state.status !== 'none') throw ruleBroken('This version has already been uploaded.', 'version');
      const { version, releaseNotes, objectKey, fileName, size, sha256 } = command;
      return [{ type: 'ReleaseUploaded', data: { version, releaseNotes, objectKey, fileName, size, sha256 } }];
    }
    if (state.status === 'none') throw notFound();
    const version = state.file.version;
    switch (command.type) {
      case 'MarkStable':
        if (state.stable === command.stable) return [];
        return [{ type: command.stable ? 'ReleaseMarkedStable' : 'ReleaseStableWithdrawn', data: { version } }];
      case 'SetActive':
        if (state.active === command.active) return [];
        return [{ type: command.active ? 'ReleaseActivated' : 'ReleaseDeactivated', data: { version } }];
      default:
        return unreachable(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ReleaseUploaded':
        return { status: 'uploaded', file: event.data, stable: false, active: false };
      case 'ReleaseMarkedStable':
      case 'ReleaseStableWithdrawn':
        return state.status === 'none' ? state : { ...state, stable: event.type === 'ReleaseMarkedStable' };
      case 'ReleaseActivated':
      case 'ReleaseDeactivated':
        return state.status === 'none' ? state : { ...state, active: event.type === 'ReleaseActivated' };
      default:
        return unreachable(event);
    }
  },
};

import {
  DESKTOP_FORMATS,
  DESKTOP_PLATFORM_NAMES,
  type DesktopFormat,
  type DesktopPlatform,
  desktopExtensionsOf,
  desktopFormatOf,
} from '@meshwork/contracts';
import { type Decider, unreachable } from '../../platform/domain/decider';
import { notFound, ruleBroken } from '../../platform/domain/errors';

/**
 * One stored file of a release, as its `ReleaseUploaded` event says. `platform` is absent
 * from events written before releases named one: read them through `fileKind`.
 */
export interface ReleaseFile {
  version: string;
  releaseNotes: string;
  objectKey: string;
  fileName: string;
  size: number;
  sha256: string;
  platform?: DesktopPlatform;
}

export type ReleaseCommand =
  | ({ type: 'UploadRelease'; at: Date; platform: DesktopPlatform; publish: boolean } & Omit<ReleaseFile, 'platform'>)
  /** Only the flags given change: publish is both true, withdraw is active false. */
  | { type: 'ChangeRelease'; at: Date; stable?: boolean; active?: boolean };

export type ReleaseEvent =
  | { type: 'ReleaseUploaded'; data: ReleaseFile }
  | { type: 'ReleaseMarkedStable'; data: { version: string } }
  | { type: 'ReleaseStableWithdrawn'; data: { version: string } }
  | { type: 'ReleaseActivated'; data: { version: string } }
  | { type: 'ReleaseDeactivated'; data: { version: string } };

export type ReleaseState =
  { status: 'none' } | { status: 'uploaded'; version: string; files: (ReleaseFile & FileKind)[]; stable: boolean; active: boolean };

/** A file's platform and format; format null for a file of another kind (only old events have one). */
export interface FileKind {
  platform: DesktopPlatform;
  format: DesktopFormat | null;
}

/**
 * What a stored file is. Old events name no platform: the extension says it (a file of
 * another kind was offered as the Windows download then, so Windows it stays).
 */
export function fileKind(file: Pick<ReleaseFile, 'fileName' | 'platform'>): FileKind {
  const format = desktopFormatOf(file.fileName);
  return { platform: file.platform ?? (format ? DESKTOP_FORMATS[format].platform : 'windows'), format };
}

/**
 * The format a new file for `platform` is, or the field error that says what it must be
 * (the upload checks this before it stores anything; the decider again before it records).
 */
export function formatFor(platform: DesktopPlatform, fileName: string): DesktopFormat {
  const format = desktopFormatOf(fileName);
  if (format && DESKTOP_FORMATS[format].platform === platform) return format;
  throw ruleBroken(`A ${DESKTOP_PLATFORM_NAMES[platform]} release must be ${desktopExtensionsOf(platform)}; ${fileName} is not.`, 'file');
}

/** The platform a file's extension says, when the uploader named none. */
export function platformOf(fileName: string): DesktopPlatform {
  const format = desktopFormatOf(fileName);
  if (!format)
    throw ruleBroken(`Choose a .exe or .zip file for Windows, or a .deb or .tar.gz file for Linux; ${fileName} is neither.`, 'file');
  return DESKTOP_FORMATS[format].platform;
}

/** The events that make the flags what the command asks, none for a flag already so. */
function flagEvents(
  version: string,
  state: { stable: boolean; active: boolean },
  wanted: { stable?: boolean; active?: boolean },
): ReleaseEvent[] {
  const events: ReleaseEvent[] = [];
  if (wanted.stable !== undefined && wanted.stable !== state.stable)
    events.push({ type: wanted.stable ? 'ReleaseMarkedStable' : 'ReleaseStableWithdrawn', data: { version } });
  if (wanted.active !== undefined && wanted.active !== state.active)
    events.push({ type: wanted.active ? 'ReleaseActivated' : 'ReleaseDeactivated', data: { version } });
  return events;
}

/**
 * A desktop release: one version, holding one file per platform and format (Linux may have
 * both a .deb and a .tar.gz). Uploaded Pre-release and Inactive unless published at once;
 * published (stable and active) or withdrawn in one step. Customers get, per platform and
 * format, the newest active stable release that has it.
 */
export const releaseDecider: Decider<ReleaseCommand, ReleaseEvent, ReleaseState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'UploadRelease': {
        const { version, releaseNotes, objectKey, fileName, size, sha256, platform, publish } = command;
        const format = formatFor(platform, fileName);
        if (state.status === 'uploaded' && state.files.some((f) => f.platform === platform && f.format === format))
          throw ruleBroken(`Version ${version} already has a ${DESKTOP_FORMATS[format].label} file.`, 'file');
        const uploaded: ReleaseEvent = {
          type: 'ReleaseUploaded',
          data: { version, releaseNotes, objectKey, fileName, size, sha256, platform },
        };
        const flags = state.status === 'uploaded' ? state : { stable: false, active: false };
        return [uploaded, ...(publish ? flagEvents(version, flags, { stable: true, active: true }) : [])];
      }
      case 'ChangeRelease':
        if (state.status === 'none') throw notFound();
        return flagEvents(state.version, state, command);
      default:
        return unreachable(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ReleaseUploaded': {
        const file = { ...event.data, ...fileKind(event.data) };
        return state.status === 'none'
          ? { status: 'uploaded', version: event.data.version, files: [file], stable: false, active: false }
          : { ...state, files: [...state.files, file] };
      }
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

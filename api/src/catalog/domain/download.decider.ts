import type { Decider } from '../../platform/domain/decider';

export interface DownloadFacts {
  downloadId: string;
  kind: 'desktop' | 'model';
  /** The release id, or the model id. */
  ref: string;
  version: string;
  fileName: string;
  size: number;
}

export type DownloadCommand = { type: 'RecordDownload'; at: Date } & DownloadFacts;
export type DownloadEvent = { type: 'DownloadRecorded'; data: DownloadFacts };

/** A user's downloads (for the dashboard and the analytics); each recorded once by its id. */
export const downloadDecider: Decider<DownloadCommand, DownloadEvent, { ids: string[] }> = {
  initialState: () => ({ ids: [] }),
  decide({ downloadId, kind, ref, version, fileName, size }, state) {
    return state.ids.includes(downloadId) ? [] : [{ type: 'DownloadRecorded', data: { downloadId, kind, ref, version, fileName, size } }];
  },
  evolve(state, event) {
    // Only the recent ids matter for repeats; the stream can grow without the state growing.
    return { ids: [...state.ids.slice(-99), event.data.downloadId] };
  },
};

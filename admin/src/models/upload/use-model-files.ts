import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { checkNewFiles, type FileProblem } from '../file-checks';
import { problemText } from './problem-text';
import { isAbort } from './retry';
import { sha256OfFile } from './stream-hash';

/** A file in the upload list (spec section 4): its checksum being computed, computed, or failed. */
export interface FileEntry {
  file: File;
  state: 'processing' | 'processed' | 'failed';
  sha256?: string;
  /** Of the file hashed so far, 0 to 100. */
  percent: number;
}

export interface RejectedFile {
  name: string;
  problem: FileProblem;
}

/** How a file's hashing ended: `stopped` when it was removed, or the dialog closed, first. */
type HashOutcome = 'processed' | 'failed' | 'stopped';

/**
 * The upload dialog's files. Each added file is checked against the limits, then hashed
 * (SHA-256, streamed) in the background; removing it stops its hashing and drops its
 * checksum. `onListChange` runs whenever files are added or removed (the dialog clears its
 * validation list then, spec section 4). Files added together are reported together, once
 * all are hashed: one toast for a package of eight files, not eight that outlive the dialog.
 */
export function useModelFiles(onListChange: () => void) {
  const notify = useNotify();
  const translate = useTranslate();
  const [entries, setEntries] = useState<FileEntry[]>([]);
  const [rejected, setRejected] = useState<RejectedFile[]>([]);
  // The list as of now, for checks made between renders (two drops in a row); state follows it.
  const current = useRef<FileEntry[]>([]);
  const hashing = useRef(new Map<File, AbortController>());
  // Set when the dialog closes: what was still being hashed then is not reported.
  const closed = useRef(false);

  const commit = useCallback((change: (entries: FileEntry[]) => FileEntry[]) => {
    current.current = change(current.current);
    setEntries(current.current);
  }, []);
  const patch = useCallback(
    (file: File, values: Partial<FileEntry>) =>
      commit((list) => list.map((entry) => (entry.file === file ? { ...entry, ...values } : entry))),
    [commit],
  );

  const hash = useCallback(
    async (file: File): Promise<HashOutcome> => {
      const controller = new AbortController();
      hashing.current.set(file, controller);
      let shown = 0;
      try {
        const sha256 = await sha256OfFile(file, {
          signal: controller.signal,
          onProgress: (bytes) => {
            const percent = Math.floor((bytes / file.size) * 100);
            if (percent !== shown) patch(file, { percent: (shown = percent) });
          },
        });
        patch(file, { state: 'processed', sha256, percent: 100 });
        return 'processed';
      } catch (error) {
        if (isAbort(error) || controller.signal.aborted) return 'stopped';
        patch(file, { state: 'failed' });
        return 'failed';
      } finally {
        hashing.current.delete(file);
      }
    },
    [patch],
  );

  /** One toast for the files added together: those processed, and one more for those that failed. */
  const report = useCallback(
    (files: readonly File[], outcomes: readonly HashOutcome[]) => {
      if (closed.current) return;
      const ended = (outcome: HashOutcome) => files.filter((_, i) => outcomes[i] === outcome);
      const [processed, failed] = [ended('processed'), ended('failed')];
      if (processed.length === 1)
        notify('resources.models.notifications.processed', { type: 'success', messageArgs: { file: processed[0]!.name } });
      else if (processed.length > 1)
        notify('resources.models.notifications.processed_files', { type: 'success', messageArgs: { smart_count: processed.length } });
      if (failed.length === 1)
        notify('resources.models.notifications.process_failed', { type: 'error', messageArgs: { file: failed[0]!.name } });
      else if (failed.length > 1)
        notify('resources.models.notifications.process_failed_files', { type: 'error', messageArgs: { smart_count: failed.length } });
    },
    [notify],
  );

  const add = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      const check = checkNewFiles(
        current.current.map((entry) => entry.file),
        files,
      );
      setRejected(check.rejected.map(({ file, problem }) => ({ name: file.name, problem })));
      // The dialog lists every refused file with its reason; the toast points there once.
      const [firstRejected] = check.rejected;
      if (check.rejected.length === 1 && firstRejected) {
        notify('resources.models.upload.rejected', {
          type: 'warning',
          messageArgs: { file: firstRejected.file.name, reason: problemText(translate, firstRejected.problem) },
        });
      } else if (check.rejected.length > 1) {
        notify('resources.models.notifications.files_not_added', { type: 'warning', messageArgs: { smart_count: check.rejected.length } });
      }
      if (check.accepted.length > 0) {
        const accepted = check.accepted;
        commit((list) => [...list, ...accepted.map((file) => ({ file, state: 'processing' as const, percent: 0 }))]);
        void Promise.all(accepted.map(hash)).then((outcomes) => report(accepted, outcomes));
      }
      onListChange();
    },
    [commit, hash, notify, onListChange, report, translate],
  );

  const remove = useCallback(
    (file: File) => {
      hashing.current.get(file)?.abort();
      commit((list) => list.filter((entry) => entry.file !== file));
      setRejected([]);
      notify('resources.models.notifications.removed', { type: 'info', messageArgs: { file: file.name } });
      onListChange();
    },
    [commit, notify, onListChange],
  );

  // Closing the dialog stops every hashing still running, and what it would have reported.
  useEffect(() => {
    const running = hashing.current;
    closed.current = false;
    return () => {
      closed.current = true;
      running.forEach((controller) => controller.abort());
    };
  }, []);

  const checksums = useMemo(
    () => Object.fromEntries(entries.flatMap((entry) => (entry.sha256 ? [[entry.file.name, entry.sha256]] : []))),
    [entries],
  );
  const files = useMemo(() => entries.map((entry) => entry.file), [entries]);

  return { entries, files, checksums, rejected, add, remove };
}

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

/**
 * The upload dialog's files. Each added file is checked against the limits, then hashed
 * (SHA-256, streamed) in the background; removing it stops its hashing and drops its
 * checksum. `onListChange` runs whenever files are added or removed (the dialog clears its
 * validation list then, spec section 4).
 */
export function useModelFiles(onListChange: () => void) {
  const notify = useNotify();
  const translate = useTranslate();
  const [entries, setEntries] = useState<FileEntry[]>([]);
  const [rejected, setRejected] = useState<RejectedFile[]>([]);
  // The list as of now, for checks made between renders (two drops in a row); state follows it.
  const current = useRef<FileEntry[]>([]);
  const hashing = useRef(new Map<File, AbortController>());

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
    async (file: File) => {
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
        notify('resources.models.notifications.processed', { type: 'success', messageArgs: { file: file.name } });
      } catch (error) {
        if (isAbort(error) || controller.signal.aborted) return;
        patch(file, { state: 'failed' });
        notify('resources.models.notifications.process_failed', { type: 'error', messageArgs: { file: file.name } });
      } finally {
        hashing.current.delete(file);
      }
    },
    [notify, patch],
  );

  const add = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      const check = checkNewFiles(
        current.current.map((entry) => entry.file),
        files,
      );
      setRejected(check.rejected.map(({ file, problem }) => ({ name: file.name, problem })));
      for (const { file, problem } of check.rejected) {
        notify('resources.models.upload.rejected', {
          type: 'warning',
          messageArgs: { file: file.name, reason: problemText(translate, problem) },
        });
      }
      if (check.accepted.length > 0) {
        commit((list) => [...list, ...check.accepted.map((file) => ({ file, state: 'processing' as const, percent: 0 }))]);
        for (const file of check.accepted) void hash(file);
      }
      onListChange();
    },
    [commit, hash, notify, onListChange, translate],
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

  // Closing the dialog stops every hashing still running.
  useEffect(() => {
    const running = hashing.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  const checksums = useMemo(
    () => Object.fromEntries(entries.flatMap((entry) => (entry.sha256 ? [[entry.file.name, entry.sha256]] : []))),
    [entries],
  );
  const files = useMemo(() => entries.map((entry) => entry.file), [entries]);

  return { entries, files, checksums, rejected, add, remove };
}

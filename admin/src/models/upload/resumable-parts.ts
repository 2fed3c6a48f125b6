import type { ResumableUpload } from '@meshwork/contracts';
import type { FileLike } from '../file-checks';

export interface PartTask {
  file: string;
  /** 1-based, as the api counts parts. */
  part: number;
  start: number;
  end: number;
}

/** The bytes of part `part` (1-based): `[(part-1)*partSize, min(part*partSize, size))`. */
export function partRange(part: number, partSize: number, fileSize: number): { start: number; end: number } {
  const start = (part - 1) * partSize;
  return { start, end: Math.min(part * partSize, fileSize) };
}

/** Every part the server does not hold yet, file by file in the upload's order. */
export function pendingParts(upload: ResumableUpload): PartTask[] {
  return upload.files.flatMap((file) => {
    const done = new Set(file.uploaded_parts);
    const tasks: PartTask[] = [];
    for (let part = 1; part <= file.parts; part += 1) {
      if (!done.has(part)) tasks.push({ file: file.name, part, ...partRange(part, upload.part_size, file.size) });
    }
    return tasks;
  });
}

/** The bytes of the parts the server already holds: where a resumed upload's progress starts. */
export function uploadedBytes(upload: ResumableUpload): number {
  return upload.files.reduce(
    (sum, file) =>
      sum +
      file.uploaded_parts.reduce((bytes, part) => {
        const { start, end } = partRange(part, upload.part_size, file.size);
        return bytes + Math.max(0, end - start);
      }, 0),
    0,
  );
}

/** Whether a stored upload is the one for these files (a stale or foreign id is not resumed). */
export function sameFiles(upload: ResumableUpload, files: readonly FileLike[]): boolean {
  return (
    upload.files.length === files.length &&
    files.every((file) => upload.files.some((planned) => planned.name === file.name && planned.size === file.size))
  );
}

const SESSION_PREFIX = 'MeshworkConsole.modelUpload.';

/** Names and sizes, in order: the same selection of files gives the same key after a reload. */
export function sessionKey(files: readonly FileLike[]): string {
  return SESSION_PREFIX + JSON.stringify(files.map((file) => [file.name, file.size]));
}

export interface UploadSessions {
  get(files: readonly FileLike[]): string | null;
  remember(files: readonly FileLike[], uploadId: string): void;
  forget(files: readonly FileLike[]): void;
}

/**
 * The upload id of an unfinished resumable upload, kept in localStorage under its files'
 * names and sizes, so that choosing the same files again, even after a reload, resumes it.
 */
export function uploadSessions(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null = safeLocalStorage()): UploadSessions {
  return {
    get: (files) => storage?.getItem(sessionKey(files)) ?? null,
    remember: (files, uploadId) => storage?.setItem(sessionKey(files), uploadId),
    forget: (files) => storage?.removeItem(sessionKey(files)),
  };
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked: uploads still work, they just cannot resume after a reload
  }
}

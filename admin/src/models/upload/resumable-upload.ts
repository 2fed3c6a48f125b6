import type { PartUrl, ResumableUpload, ResumableUploadStart, UploadResponse } from '@meshwork/contracts';
import { totalSize } from '../file-checks';
import { type PartTask, pendingParts, sameFiles, uploadedBytes, type UploadSessions } from './resumable-parts';
import { withRetry } from './retry';
import type { UploadFormValues } from './upload-validation';

/** The api's resumable-upload calls (POST /admin-panel/models/uploads/ and the rest). */
export interface ResumableApi {
  start(body: ResumableUploadStart): Promise<ResumableUpload>;
  status(uploadId: string): Promise<ResumableUpload>;
  partUrl(uploadId: string, file: string, part: number): Promise<PartUrl>;
  complete(uploadId: string): Promise<UploadResponse>;
}

export interface ResumableDeps {
  api: ResumableApi;
  /** PUTs a part's bytes to its presigned URL; rejects with PartPutError on an error status. */
  putPart(url: string, body: Blob, signal: AbortSignal): Promise<void>;
  sessions: UploadSessions;
  /** Backoff between tries; rejects when the signal aborts. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** Parts in flight at once. */
  concurrency?: number;
  maxAttempts?: number;
}

export interface ResumableRequest {
  fields: UploadFormValues;
  files: readonly File[];
  checksums: Readonly<Record<string, string>>;
  /** Bytes of finished parts over the total, 0 to 1. */
  onProgress(fraction: number): void;
  /** The upload's id, as soon as it is known (so it can be cancelled). */
  onUploadId?(uploadId: string): void;
  signal: AbortSignal;
}

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;

function startBody({ fields, files, checksums }: ResumableRequest): ResumableUploadStart {
  return {
    name: fields.name.trim(),
    display_name: fields.display_name.trim(),
    description: fields.description.trim(),
    version: fields.version.trim(),
    allowed_plans: fields.allowed_plans,
    ...(fields.parameters.trim() ? { parameters: fields.parameters.trim() } : {}),
    ...(fields.architecture.trim() ? { architecture: fields.architecture.trim() } : {}),
    files: files.map((file) => ({ name: file.name, size: file.size, sha256: checksums[file.name] ?? '' })),
  };
}

/** The stored upload for these files if the server still has it; a finished, cancelled or foreign one is forgotten. */
async function resumeOrStart(deps: ResumableDeps, request: ResumableRequest, retry: <T>(op: () => Promise<T>) => Promise<T>) {
  const storedId = deps.sessions.get(request.files);
  if (storedId) {
    try {
      const upload = await retry(() => deps.api.status(storedId));
      if (sameFiles(upload, request.files)) return upload;
    } catch (error) {
      const status = statusOf(error);
      if (status === undefined || status >= 500) throw error;
    }
    deps.sessions.forget(request.files);
  }
  // Not retried: a start whose answer was lost has already claimed the model's name.
  const upload = await deps.api.start(startBody(request));
  deps.sessions.remember(request.files, upload.upload_id);
  return upload;
}

/**
 * Uploads the files part by part to presigned URLs, resuming an upload these same files
 * started before (a big model must survive a dropped connection or a reload). Each part is
 * retried with backoff, with a fresh URL each time; then the server puts the parts together
 * and checks every size and SHA-256. The stored id is forgotten once the server has
 * answered `complete` with a success or a refusal.
 */
export async function runResumableUpload(deps: ResumableDeps, request: ResumableRequest): Promise<UploadResponse> {
  const { signal } = request;
  const retry = <T>(operation: () => Promise<T>) => withRetry(operation, (ms) => deps.wait(ms, signal), deps.maxAttempts);
  const upload = await resumeOrStart(deps, request, retry);
  request.onUploadId?.(upload.upload_id);
  signal.throwIfAborted();

  const total = totalSize(request.files);
  let done = uploadedBytes(upload);
  request.onProgress(total > 0 ? done / total : 0);
  const byName = new Map(request.files.map((file) => [file.name, file]));
  const queue = pendingParts(upload);

  // One failed part stops the others: the rest would only be thrown away.
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });

  const sendPart = async (task: PartTask) => {
    const file = byName.get(task.file);
    if (!file) throw new Error(`the upload names a file that was not chosen: ${task.file}`);
    await retry(async () => {
      const { url } = await deps.api.partUrl(upload.upload_id, task.file, task.part);
      await deps.putPart(url, file.slice(task.start, task.end), stop.signal);
    });
    done += task.end - task.start;
    request.onProgress(done / total);
  };
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      stop.signal.throwIfAborted();
      await sendPart(task);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, deps.concurrency ?? 3) }, () =>
        worker().catch((error: unknown) => {
          stop.abort(error);
          throw error;
        }),
      ),
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
  }

  signal.throwIfAborted();
  try {
    // Not retried either: completing twice fails the second time. Submitting again resumes and completes.
    const response = await deps.api.complete(upload.upload_id);
    deps.sessions.forget(request.files);
    return response;
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && status >= 400 && status < 500) deps.sessions.forget(request.files);
    throw error;
  }
}

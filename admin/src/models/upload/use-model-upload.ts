import { useCallback, useRef, useState } from 'react';
import { HttpError, useDataProvider, useLogoutIfAccessDenied, useNotify, useTranslate } from 'react-admin';
import { RESUMABLE_THRESHOLD_BYTES, type UploadError, type UploadResponse } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../../app/data-provider';
import { problemText } from './problem-text';
import { type UploadSessions, uploadSessions } from './resumable-parts';
import { runResumableUpload } from './resumable-upload';
import { isAbort, PartPutError, waitForNetwork } from './retry';
import { uploadInOneRequest } from './simple-upload';
import { type UploadFormValues, validateUpload } from './upload-validation';

/** PUT one part's bytes to its presigned URL: no bearer token and no JSON type, the URL carries its own signature. */
async function putPart(url: string, body: Blob, signal: AbortSignal): Promise<void> {
  const response = await fetch(url, { method: 'PUT', body, signal, credentials: 'omit' });
  if (!response.ok) throw new PartPutError(response.status);
}

const needsResumable = (files: readonly File[]) => files.some((file) => file.size > RESUMABLE_THRESHOLD_BYTES);

function uploadErrorOf(error: unknown): Partial<UploadError> {
  return error instanceof HttpError && typeof error.body === 'object' && error.body !== null ? (error.body as Partial<UploadError>) : {};
}

/**
 * Submitting the upload dialog: the spec's checks first (section 5), then one multipart
 * request when every file is small, or the resumable part-by-part upload when one is not.
 * `errors` is the list shown in the dialog: the checks' messages, or the server's per-file
 * refusals as 'file: error'.
 */
export function useModelUpload(onUploaded: (response: UploadResponse) => void) {
  const notify = useNotify();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const [uploading, setUploading] = useState(false);
  const [percent, setPercent] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);
  const running = useRef<{ controller: AbortController; uploadId: string | null; files: readonly File[] } | null>(null);
  const sessions = useRef<UploadSessions>(uploadSessions()).current;

  const discard = (uploadId: string, files: readonly File[]) => {
    sessions.forget(files);
    dataProvider.cancelModelUpload(uploadId).catch(() => undefined);
  };

  const upload = (fields: UploadFormValues, files: readonly File[], checksums: Record<string, string>, signal: AbortSignal) => {
    const onProgress = (fraction: number) => setPercent(Math.floor(fraction * 100));
    if (!needsResumable(files)) return uploadInOneRequest(fields, files, checksums, { onProgress, signal });
    const api = {
      start: dataProvider.startModelUpload,
      status: dataProvider.getModelUpload,
      partUrl: dataProvider.getModelUploadPartUrl,
      complete: dataProvider.completeModelUpload,
    };
    return runResumableUpload(
      { api, putPart, sessions, wait: waitForNetwork },
      {
        fields,
        files,
        checksums,
        signal,
        onProgress,
        onUploadId: (uploadId) => {
          // Cancelled while the server was still creating it: discard it now.
          if (signal.aborted) discard(uploadId, files);
          else if (running.current) running.current.uploadId = uploadId;
        },
      },
    );
  };

  const fail = async (error: unknown) => {
    if (isAbort(error)) {
      notify('resources.models.notifications.upload_cancelled', { type: 'info' });
      return;
    }
    // Only the api's refusals concern the session: a storage 403 is an expired part URL, not lost staff rights.
    if (error instanceof HttpError && (await logoutIfAccessDenied(error))) return;
    const body = uploadErrorOf(error);
    if (body.validation_errors?.length) {
      setErrors(
        body.validation_errors.map(({ file, error: reason }) => translate('resources.models.upload.server_error', { file, error: reason })),
      );
      notify('resources.models.notifications.file_validation_failed', { type: 'error' });
    } else if (body.message) {
      notify(body.message, { type: 'error', messageArgs: { _: body.message } });
    } else {
      notify('resources.models.notifications.upload_failed', { type: 'error' });
    }
  };

  const submit = async (fields: UploadFormValues, files: readonly File[], checksums: Record<string, string>) => {
    const problems = validateUpload(fields, files, checksums);
    if (problems.length > 0) {
      setErrors(problems.map((problem) => problemText(translate, problem)));
      notify('resources.models.notifications.fix_errors', { type: 'error' });
      return;
    }
    setErrors([]);
    setPercent(0);
    setUploading(true);
    const controller = new AbortController();
    running.current = { controller, uploadId: null, files };
    try {
      const response = await upload(fields, files, checksums, controller.signal);
      notify('resources.models.notifications.uploaded', { type: 'success', messageArgs: { name: response.display_name } });
      onUploaded(response);
    } catch (error) {
      await fail(error);
    } finally {
      running.current = null;
      setUploading(false);
    }
  };

  /** Stops the upload under way; a resumable one is also discarded on the server, parts and all. */
  const cancel = () => {
    const current = running.current;
    if (!current) return;
    current.controller.abort(new DOMException('Upload cancelled', 'AbortError'));
    if (current.uploadId) discard(current.uploadId, current.files);
  };

  const clearErrors = useCallback(() => setErrors([]), []);

  return { submit, cancel, uploading, percent, errors, clearErrors, resumable: (files: readonly File[]) => sessions.get(files) !== null };
}

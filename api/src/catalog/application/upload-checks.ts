import path from 'node:path';
import { UPLOAD_LIMITS, uploadMessages } from '@meshwork/contracts';
import { DomainError } from '../../platform/domain/errors';
import { ValidationFailed } from '../../platform/http/validation';
import { storageUnavailable } from './catalog-context';

/** What the simple and the resumable upload share: the spec's per-file checks and their answers. */

export type FileError = { file: string; error: string };

/** Spec section 9's size display: Bytes to TB in steps of 1024, two decimals at most. */
export function formatSize(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value * 100) / 100} ${units[unit]}`;
}

/** The per-file checks of spec section 5, in the order the console applies them. */
export function fileProblem(name: string, size: number | null, seen: Set<string>): string | null {
  const ext = path.extname(name).toLowerCase();
  if (size !== null && size > UPLOAD_LIMITS.maxFileBytes) return uploadMessages.fileTooLarge(formatSize(UPLOAD_LIMITS.maxFileBytes));
  if (!(UPLOAD_LIMITS.extensions as readonly string[]).includes(ext)) return uploadMessages.fileType(ext || '(none)');
  if (seen.has(name)) return uploadMessages.duplicate;
  return null;
}

/** The spec's 400 for an upload, with the files at fault. */
export const rejected = (message: string, validationErrors: FileError[] = []) =>
  new ValidationFailed({ message, ...(validationErrors.length ? { validation_errors: validationErrors } : {}) });

/** A failure that is not the file's fault: storage down (503) or the body cut short (400). */
export function storageOrIncomplete(error: unknown, streamError: unknown): Error {
  if (streamError) return rejected('The upload was interrupted before it finished. Nothing was saved; please try again.');
  return error instanceof DomainError || error instanceof ValidationFailed ? error : storageUnavailable();
}

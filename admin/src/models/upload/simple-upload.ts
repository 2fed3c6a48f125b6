import type { UploadResponse } from '@meshwork/contracts';
import { API_BASE } from '../../auth/site-urls';
import { type MultipartOptions, postMultipart } from './multipart-request';
import type { UploadFormValues } from './upload-validation';

/**
 * The multipart body of POST /admin-panel/models/upload/ (spec section 7): the text fields, then one
 * `files` part per file (the server takes them in any order and decides when the body ends).
 */
export function uploadForm(fields: UploadFormValues, files: readonly File[], checksums: Readonly<Record<string, string>>): FormData {
  const form = new FormData();
  form.append('name', fields.name.trim());
  form.append('display_name', fields.display_name.trim());
  form.append('description', fields.description.trim());
  form.append('version', fields.version.trim());
  form.append('allowed_plans', JSON.stringify(fields.allowed_plans));
  form.append('checksums', JSON.stringify(Object.fromEntries(files.map((file) => [file.name, checksums[file.name]]))));
  if (fields.parameters.trim()) form.append('parameters', fields.parameters.trim());
  if (fields.architecture.trim()) form.append('architecture', fields.architecture.trim());
  for (const file of files) form.append('files', file, file.name);
  return form;
}

/** The one-request upload, for models whose every file is small enough to send whole. */
export function uploadInOneRequest(
  fields: UploadFormValues,
  files: readonly File[],
  checksums: Readonly<Record<string, string>>,
  options: MultipartOptions,
): Promise<UploadResponse> {
  return postMultipart<UploadResponse>(`${API_BASE}/admin-panel/models/upload/`, uploadForm(fields, files, checksums), options);
}

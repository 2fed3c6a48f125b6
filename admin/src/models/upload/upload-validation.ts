import type { ModelPlan } from '@meshwork/contracts';
import type { FileLike } from '../file-checks';

/** The upload form's fields (spec section 3, "Upload form"); files and checksums live beside it. */
export interface UploadFormValues {
  name: string;
  display_name: string;
  description: string;
  version: string;
  parameters: string;
  architecture: string;
  allowed_plans: ModelPlan[];
}

export const emptyUploadForm = (defaultVersion: string): UploadFormValues => ({
  name: '',
  display_name: '',
  description: '',
  version: defaultVersion,
  parameters: '',
  architecture: '',
  allowed_plans: [],
});

export type UploadProblem =
  | { code: 'name_required' | 'display_name_required' | 'version_required' | 'plan_required' | 'file_required' }
  | { code: 'missing_checksums'; files: string };

/**
 * The submit checks of spec section 5, in its order: name, display name, version (each
 * non-blank once trimmed), a plan, a file, then every file's checksum. Empty means valid.
 */
export function validateUpload(
  form: UploadFormValues,
  files: readonly FileLike[],
  checksums: Readonly<Record<string, string>>,
): UploadProblem[] {
  const problems: UploadProblem[] = [];
  if (!form.name.trim()) problems.push({ code: 'name_required' });
  if (!form.display_name.trim()) problems.push({ code: 'display_name_required' });
  if (!form.version.trim()) problems.push({ code: 'version_required' });
  if (form.allowed_plans.length === 0) problems.push({ code: 'plan_required' });
  if (files.length === 0) problems.push({ code: 'file_required' });
  const missing = files.filter((file) => !checksums[file.name]).map((file) => file.name);
  if (missing.length > 0) problems.push({ code: 'missing_checksums', files: missing.join(', ') });
  return problems;
}

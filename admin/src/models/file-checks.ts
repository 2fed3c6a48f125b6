import { UPLOAD_LIMITS } from '@meshwork/contracts';
import { formatBytes } from './model-format';

export interface FileLike {
  name: string;
  size: number;
}

/** Why a file was not added to the upload list (spec section 5, "File limits"); the UI words it. */
export type FileProblem =
  | { code: 'file_too_large'; size: string }
  | { code: 'file_type'; ext: string; accepted: string }
  | { code: 'duplicate' }
  | { code: 'total_too_large'; size: string };

export interface FileCheck<F extends FileLike> {
  accepted: F[];
  rejected: { file: F; problem: FileProblem }[];
}

/** ".onnx" for "Model.ONNX"; "" for a name without an extension. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The bytes of every file in a list. */
export const totalSize = (files: readonly FileLike[]): number => files.reduce((sum, file) => sum + file.size, 0);

/**
 * Which of `incoming` may join the `current` list, checked one by one in the spec's order:
 * size, type, already added, then the total with the files accepted so far. A file whose
 * name is already in the list counts as already added whatever its size: the server keys
 * files and checksums by name, so two files of one name cannot be told apart.
 */
export function checkNewFiles<F extends FileLike>(
  current: readonly FileLike[],
  incoming: readonly F[],
  limits = UPLOAD_LIMITS,
): FileCheck<F> {
  const accepted: F[] = [];
  const rejected: FileCheck<F>['rejected'] = [];
  const names = new Set(current.map((file) => file.name));
  let total = totalSize(current);
  const extensions: readonly string[] = limits.extensions;
  for (const file of incoming) {
    const ext = extensionOf(file.name);
    let problem: FileProblem | null = null;
    if (file.size > limits.maxFileBytes) problem = { code: 'file_too_large', size: formatBytes(limits.maxFileBytes) };
    else if (!extensions.includes(ext)) problem = { code: 'file_type', ext: ext || '(none)', accepted: extensions.join(', ') };
    else if (names.has(file.name)) problem = { code: 'duplicate' };
    else if (total + file.size > limits.maxTotalBytes) problem = { code: 'total_too_large', size: formatBytes(limits.maxTotalBytes) };
    if (problem) {
      rejected.push({ file, problem });
      continue;
    }
    accepted.push(file);
    names.add(file.name);
    total += file.size;
  }
  return { accepted, rejected };
}

import type { TranslateFunction } from 'react-admin';
import type { FileProblem } from '../file-checks';
import type { UploadProblem } from './upload-validation';

/** A problem's words in the console's language: `resources.models.upload.problems.{code}`, its other fields as arguments. */
export function problemText(translate: TranslateFunction, { code, ...args }: FileProblem | UploadProblem): string {
  return translate(`resources.models.upload.problems.${code}`, args);
}

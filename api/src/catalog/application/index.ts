import { AbortResumableUploadHandler } from './abort-resumable-upload.handler';
import { ChangeModelAccessHandler } from './change-model-access.handler';
import { ChangePlanModelsHandler } from './change-plan-models.handler';
import { ChangeReleaseHandler } from './change-release.handler';
import { CompleteResumableUploadHandler } from './complete-resumable-upload.handler';
import { DeleteModelHandler } from './delete-model.handler';
import { DownloadDesktopAppHandler } from './download-desktop-app.handler';
import { DownloadModelFileHandler } from './download-model-file.handler';
import { FailModelUploadHandler } from './fail-model-upload.handler';
import { PublishModelHandler } from './publish-model.handler';
import { SetAccessMatrixHandler } from './set-access-matrix.handler';
import { SetModelStatusHandler } from './set-model-status.handler';
import { StartModelUploadHandler } from './start-model-upload.handler';
import { StartResumableUploadHandler } from './start-resumable-upload.handler';
import { UploadModelHandler } from './upload-model.handler';
import { UploadReleaseHandler } from './upload-release.handler';

/** Every catalog append is one of these commands (see docs/decisions.md, "Catalog and uploads"). */
export const catalogCommandHandlers = [
  StartModelUploadHandler,
  PublishModelHandler,
  FailModelUploadHandler,
  UploadModelHandler,
  StartResumableUploadHandler,
  CompleteResumableUploadHandler,
  AbortResumableUploadHandler,
  ChangeModelAccessHandler,
  SetAccessMatrixHandler,
  ChangePlanModelsHandler,
  SetModelStatusHandler,
  DeleteModelHandler,
  UploadReleaseHandler,
  ChangeReleaseHandler,
  DownloadModelFileHandler,
  DownloadDesktopAppHandler,
];

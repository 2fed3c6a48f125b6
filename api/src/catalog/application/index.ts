import { ChangeModelAccessHandler } from './change-model-access.handler';
import { ChangePlanModelsHandler } from './change-plan-models.handler';
import { ChangeReleaseHandler } from './change-release.handler';
import { DeleteModelHandler } from './delete-model.handler';
import { DownloadDesktopAppHandler } from './download-desktop-app.handler';
import { DownloadModelFileHandler } from './download-model-file.handler';
import { FailModelUploadHandler } from './fail-model-upload.handler';
import { SetAccessMatrixHandler } from './set-access-matrix.handler';
import { SetModelStatusHandler } from './set-model-status.handler';
import { UploadReleaseHandler } from './upload-release.handler';

/** Every catalog append is one of these commands (see docs/decisions.md, "Issue 11: the catalog's one write path"). */
export const catalogCommandHandlers = [
  ChangeModelAccessHandler,
  SetAccessMatrixHandler,
  ChangePlanModelsHandler,
  SetModelStatusHandler,
  DeleteModelHandler,
  FailModelUploadHandler,
  UploadReleaseHandler,
  ChangeReleaseHandler,
  DownloadModelFileHandler,
  DownloadDesktopAppHandler,
];

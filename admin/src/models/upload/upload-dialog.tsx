import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Typography,
} from '@mui/material';
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { UPLOAD_LIMITS, type UploadResponse } from '@meshwork/contracts';
import { totalSize } from '../file-checks';
import { formatBytes } from '../model-format';
import { FileDropZone } from './file-drop-zone';
import { ModelInfoFields } from './model-info-fields';
import type { PackageFacts } from './package-facts';
import { PlanAccessFields } from './plan-access-fields';
import { problemText } from './problem-text';
import { UploadFileList } from './upload-file-list';
import { emptyUploadForm, type UploadFormValues } from './upload-validation';
import { useModelFiles } from './use-model-files';
import { useModelUpload } from './use-model-upload';
import { usePackageFacts } from './use-package-facts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="section" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * 'Upload AI Model' (spec section 2): model information, access control, files, a summary,
 * the list of what to fix, the progress, Cancel and Upload Model. A model package's
 * model.json fills in the parameters and architecture when they are left empty. Mounted only while open,
 * so every opening starts from an empty form. Cancel during an upload stops it; the dialog
 * cannot be dismissed otherwise until it ends.
 */
export function UploadModelDialog({ onClose, onUploaded }: { onClose: () => void; onUploaded: (response: UploadResponse) => void }) {
  const translate = useTranslate();
  const [values, setValues] = useState<UploadFormValues>(() => emptyUploadForm(UPLOAD_LIMITS.defaultVersion));
  const upload = useModelUpload((response) => {
    setValues(emptyUploadForm(UPLOAD_LIMITS.defaultVersion));
    onUploaded(response);
  });
  const files = useModelFiles(upload.clearErrors);
  // A model package's model.json fills the parameters and architecture staff left empty.
  const fillFromPackage = useCallback(
    ({ parameters, architecture }: PackageFacts) =>
      setValues((v) => ({
        ...v,
        parameters: v.parameters.trim() ? v.parameters : parameters,
        architecture: v.architecture.trim() ? v.architecture : architecture,
      })),
    [],
  );
  usePackageFacts(files.files, fillFromPackage);
  const { uploading } = upload;
  // The list of what to fix sits below the files: bring it into view when it appears.
  const errorList = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (upload.errors.length > 0) errorList.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, [upload.errors]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void upload.submit(values, files.files, files.checksums);
  };
  const cancel = () => (uploading ? upload.cancel() : onClose());

  return (
    <Dialog open onClose={uploading ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="upload-model-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="upload-model-title">{translate('resources.models.upload.title')}</DialogTitle>
        <DialogContent>
          <Section title="resources.models.upload.model_information">
            <ModelInfoFields
              values={values}
              onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
              disabled={uploading}
            />
          </Section>
          <Section title="resources.models.upload.access_control">
            <Typography variant="body2" color="text.secondary">
              {translate('resources.models.upload.access_hint')}
            </Typography>
            <PlanAccessFields
              value={values.allowed_plans}
              onChange={(allowed_plans) => setValues((v) => ({ ...v, allowed_plans }))}
              disabled={uploading}
            />
          </Section>
          <Section title="resources.models.upload.model_files">
            <FileDropZone onFiles={files.add} disabled={uploading} />
            {files.rejected.length > 0 ? (
              <Alert severity="warning" sx={{ mt: 1 }} data-testid="rejected-files">
                <AlertTitle>{translate('resources.models.upload.not_added')}</AlertTitle>
                {files.rejected.map(({ name, problem }) => (
                  <div key={name}>
                    {translate('resources.models.upload.rejected', { file: name, reason: problemText(translate, problem) })}
                  </div>
                ))}
              </Alert>
            ) : null}
            <UploadFileList entries={files.entries} onRemove={files.remove} disabled={uploading} />
            {files.files.length > 0 ? (
              <Typography variant="body2" data-testid="upload-summary">
                {translate('resources.models.upload.summary', {
                  smart_count: files.files.length,
                  size: formatBytes(totalSize(files.files)),
                })}
              </Typography>
            ) : null}
            {files.files.length > 0 && upload.resumable(files.files) ? (
              <Alert severity="info" sx={{ mt: 1 }}>
                {translate('resources.models.upload.resumes')}
              </Alert>
            ) : null}
          </Section>
          {upload.errors.length > 0 ? (
            <Alert severity="error" sx={{ mt: 2 }} data-testid="upload-errors" ref={errorList}>
              <AlertTitle>{translate('resources.models.upload.errors_title')}</AlertTitle>
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {upload.errors.map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </Box>
            </Alert>
          ) : null}
          {uploading ? (
            <Box sx={{ mt: 2 }}>
              <Typography variant="body2" gutterBottom>
                {translate('resources.models.upload.progress', { percent: upload.percent })}
              </Typography>
              <LinearProgress variant="determinate" value={upload.percent} aria-label={translate('resources.models.upload.uploading')} />
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={files.files.length === 0 || uploading}>
            {translate(uploading ? 'resources.models.upload.uploading' : 'resources.models.upload.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Box, Button, Typography } from '@mui/material';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { UPLOAD_LIMITS } from '@meshwork/contracts';
import { formatBytes } from '../model-format';

/** Drag and drop, or Select Files (spec section 2, "Model Files"). The picker offers the accepted extensions only. */
export function FileDropZone({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled: boolean }) {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) onFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <Box
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: over ? 'primary.main' : 'divider',
        bgcolor: over ? 'action.hover' : 'transparent',
        borderRadius: 1,
        p: 3,
        textAlign: 'center',
      }}
    >
      <UploadFileIcon color="action" sx={{ fontSize: 40 }} />
      <Typography gutterBottom>{translate('resources.models.upload.drop_here')}</Typography>
      <Button variant="outlined" onClick={() => input.current?.click()} disabled={disabled}>
        {translate('resources.models.upload.select_files')}
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={UPLOAD_LIMITS.extensions.join(',')}
        data-testid="model-files-input"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          // The same file chosen again after a removal must fire change again.
          event.target.value = '';
        }}
      />
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {translate('resources.models.upload.limits', {
          extensions: UPLOAD_LIMITS.extensions.join(', '),
          file: formatBytes(UPLOAD_LIMITS.maxFileBytes),
          total: formatBytes(UPLOAD_LIMITS.maxTotalBytes),
        })}
      </Typography>
    </Box>
  );
}

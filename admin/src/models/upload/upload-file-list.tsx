import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import { CircularProgress, IconButton, List, ListItem, ListItemIcon, ListItemText } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatBytes, shortChecksum } from '../model-format';
import type { FileEntry } from './use-model-files';

function StateIcon({ entry }: { entry: FileEntry }) {
  if (entry.state === 'processing') return <CircularProgress size={20} aria-hidden />;
  if (entry.state === 'processed') return <CheckCircleIcon color="success" aria-hidden />;
  return <CancelIcon color="error" aria-hidden />;
}

/**
 * The chosen files (spec section 4): a spinner and the hashing's progress while the
 * checksum is computed, then a green tick with its first 8 characters, or a red mark.
 */
export function UploadFileList({
  entries,
  onRemove,
  disabled,
}: {
  entries: FileEntry[];
  onRemove: (file: File) => void;
  disabled: boolean;
}) {
  const translate = useTranslate();
  const stateText = (entry: FileEntry) => {
    if (entry.state === 'processing') return translate('resources.models.upload.processing', { percent: entry.percent });
    if (entry.state === 'failed') return translate('resources.models.upload.failed');
    return `SHA-256 ${shortChecksum(entry.sha256 ?? '')}`;
  };
  return (
    <List dense aria-label={translate('resources.models.upload.model_files')}>
      {entries.map((entry) => (
        <ListItem
          key={`${entry.file.name}:${entry.file.size}`}
          data-state={entry.state}
          secondaryAction={
            <IconButton
              edge="end"
              aria-label={translate('resources.models.upload.remove', { file: entry.file.name })}
              onClick={() => onRemove(entry.file)}
              disabled={disabled}
            >
              <CloseIcon />
            </IconButton>
          }
        >
          <ListItemIcon sx={{ minWidth: 36 }}>
            <StateIcon entry={entry} />
          </ListItemIcon>
          <ListItemText
            primary={`${entry.file.name} (${formatBytes(entry.file.size)})`}
            secondary={stateText(entry)}
            slotProps={{ secondary: { sx: { fontFamily: entry.state === 'processed' ? 'monospace' : undefined } } }}
          />
        </ListItem>
      ))}
    </List>
  );
}

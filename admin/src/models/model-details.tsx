import { Box, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import { useIntlLocale } from '../i18n/intl-locale';
import { ModelFact } from './model-fact';
import { formatBytes, formatDateTime, shortChecksum } from './model-format';
import { ModelStatus } from './model-status';
import { PlanAccess } from './plan-badges';

/** Everything known about a model (spec section 2, "Details dialog"), its files with the start of their SHA-256. */
export function ModelDetails({ model }: { model: AdminModel }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box>
        <ModelFact label="resources.models.fields.name" value={model.name} />
        <ModelFact label="resources.models.fields.version" value={model.version} />
        <ModelFact label="resources.models.fields.file_name" value={model.fileName} />
        <ModelFact label="resources.models.fields.size" value={formatBytes(model.fileSize)} />
        <ModelFact label="resources.models.fields.parameters" value={model.metadata.parameters} />
        <ModelFact label="resources.models.fields.architecture" value={model.metadata.architecture} />
        <ModelFact label="resources.models.fields.upload_date" value={formatDateTime(model.uploadDate, intlLocale)} />
        <ModelFact label="resources.models.fields.uploaded_by" value={model.uploadedBy} />
      </Box>
      <Box>
        <Typography variant="subtitle2">{translate('resources.models.fields.status')}</Typography>
        <ModelStatus status={model.status} />
      </Box>
      <Box>
        <Typography variant="subtitle2">{translate('resources.models.fields.description')}</Typography>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
          {model.metadata.description || translate('resources.models.card.not_given')}
        </Typography>
      </Box>
      <PlanAccess plans={model.allowedPlans} />
      <Box>
        <Typography variant="subtitle2">{translate('resources.models.fields.files')}</Typography>
        <List dense disablePadding>
          {[...model.files]
            .sort((a, b) => a.part_index - b.part_index)
            .map((file) => (
              <ListItem key={file.name} disableGutters>
                <ListItemText
                  primary={translate('resources.models.card.file_line', {
                    name: file.name,
                    size: formatBytes(file.size),
                    checksum: shortChecksum(file.sha256),
                  })}
                  slotProps={{ primary: { variant: 'body2', sx: { fontFamily: 'monospace' } } }}
                />
              </ListItem>
            ))}
        </List>
      </Box>
    </Box>
  );
}

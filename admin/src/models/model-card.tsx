import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Box, Card, CardActions, CardContent, CardHeader } from '@mui/material';
import { Button, useTranslate } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import { WriteOnly } from '../auth/use-can-write';
import { useIntlLocale } from '../i18n/intl-locale';
import { DeleteModelButton } from './delete-model-button';
import { ModelFact } from './model-fact';
import { formatBytes, formatDateTime, isModelPackage } from './model-format';
import { ModelStatus } from './model-status';
import { PlanAccess } from './plan-badges';

/**
 * One model (spec section 2): name, version, status, size, parameters, file type, plan
 * badges and upload date; Details, and for staff Delete. The card is an article named after the
 * model, so it can be found as one.
 */
export function ModelCard({ model, onDetails }: { model: AdminModel; onDetails: () => void }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const title = model.display_name || model.name;
  return (
    <Card component="article" aria-label={title} variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardHeader
        title={title}
        subheader={`${model.name} · ${translate('resources.models.card.version', { version: model.version })}`}
        action={<ModelStatus status={model.status} />}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
      />
      <CardContent sx={{ flexGrow: 1, display: 'grid', gap: 1.5, alignContent: 'start' }}>
        <Box>
          <ModelFact label="resources.models.fields.size" value={formatBytes(model.fileSize)} />
          <ModelFact label="resources.models.fields.parameters" value={model.metadata.parameters} />
          <ModelFact
            label="resources.models.fields.file_type"
            value={isModelPackage(model.files) ? translate('resources.models.card.package') : model.fileType}
          />
          <ModelFact label="resources.models.fields.upload_date" value={formatDateTime(model.uploadDate, intlLocale)} />
        </Box>
        <PlanAccess plans={model.allowedPlans} />
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end' }}>
        <Button label="resources.models.actions.details" onClick={onDetails}>
          <InfoOutlinedIcon />
        </Button>
        <WriteOnly>
          <DeleteModelButton model={model} />
        </WriteOnly>
      </CardActions>
    </Card>
  );
}

import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import TableChartIcon from '@mui/icons-material/TableChart';
import { Box, Stack, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { Button, Title, useTranslate } from 'react-admin';
import { WriteOnly } from '../auth/use-can-write';
import { BackIcon } from '../layout/back-icon';
import { AccessMatrixDialog } from './access-matrix-dialog';
import { CatalogActivity } from './catalog-activity';
import { ExportModelsButton } from './export-models-button';
import { ModelGrid } from './model-grid';
import { DesktopReleases } from './releases/desktop-releases';
import { UploadModelDialog } from './upload/upload-dialog';
import { useAdminModels, useModelCache } from './use-admin-models';

type TabName = 'models' | 'releases' | 'activity';
type DialogName = 'matrix' | 'upload' | null;

function ModelsTab() {
  const { data: models, isPending, isError } = useAdminModels();
  const cache = useModelCache();
  const [dialog, setDialog] = useState<DialogName>(null);
  return (
    <>
      <Stack direction="row" sx={{ justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        <WriteOnly>
          <Button label="resources.models.actions.manage_access" onClick={() => setDialog('matrix')} disabled={!models}>
            <TableChartIcon />
          </Button>
        </WriteOnly>
        <ExportModelsButton models={models} />
        <WriteOnly>
          <Button label="resources.models.actions.upload" variant="contained" onClick={() => setDialog('upload')}>
            <CloudUploadIcon />
          </Button>
        </WriteOnly>
      </Stack>
      <ModelGrid models={models} isPending={isPending} isError={isError} />
      {dialog === 'matrix' && models ? <AccessMatrixDialog models={models} onClose={() => setDialog(null)} /> : null}
      {dialog === 'upload' ? (
        <UploadModelDialog
          onClose={() => setDialog(null)}
          onUploaded={() => {
            setDialog(null);
            void cache.reload();
          }}
        />
      ) : null}
    </>
  );
}

/**
 * /admin/models (spec section 2, "Admin AI Model Management"): back to the dashboard; the
 * model cards with Export, and for staff Manage Access and Upload Model; the desktop app's
 * releases; and the recent activity from the audit trail.
 */
export function ModelList() {
  const translate = useTranslate();
  const [tab, setTab] = useState<TabName>('models');
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('resources.models.title')} />
      <Button to="/" label="resources.models.actions.back_to_dashboard">
        <BackIcon />
      </Button>
      <Tabs value={tab} onChange={(_, value: TabName) => setTab(value)} sx={{ borderBottom: 1, borderColor: 'divider', mt: 1 }}>
        <Tab value="models" label={translate('resources.models.tabs.models')} />
        <Tab value="releases" label={translate('resources.models.tabs.releases')} />
        <Tab value="activity" label={translate('resources.models.tabs.activity')} />
      </Tabs>
      {tab === 'models' ? <ModelsTab /> : null}
      {tab === 'releases' ? <DesktopReleases /> : null}
      {tab === 'activity' ? <CatalogActivity /> : null}
    </Box>
  );
}

import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Tab, Tabs } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../app/data-provider';
import { ResourceHistory } from '../audit/resource-history';
import { WriteOnly } from '../auth/use-can-write';
import { ModelDetails } from './model-details';
import { useModelCache } from './use-admin-models';

type DetailsTab = 'details' | 'history';

/**
 * A model's dialog: its details, or its History (its stream, model-<id>, in the audit trail);
 * and for staff the one change made from here: taking an active model off the plans
 * (inactive) or putting it back.
 */
export function ModelDetailsDialog({ model, onClose }: { model: AdminModel; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const cache = useModelCache();
  const [tab, setTab] = useState<DetailsTab>('details');

  const setStatus = useMutation({
    mutationFn: (status: 'active' | 'inactive') => dataProvider.setModelStatus(model.id, status),
    onSuccess: (updated) => {
      cache.replace([updated]);
      notify('resources.models.notifications.status_updated', { type: 'success' });
    },
    onError: () => notify('resources.models.notifications.status_update_failed', { type: 'error' }),
  });
  const toggle = model.status === 'active' ? 'inactive' : model.status === 'inactive' ? 'active' : null;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth={tab === 'history' ? 'lg' : 'sm'} aria-labelledby="model-details-title">
      <DialogTitle id="model-details-title">{model.display_name || model.name}</DialogTitle>
      <Tabs value={tab} onChange={(_, value: DetailsTab) => setTab(value)} sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="details" label={translate('resources.models.details.details')} />
        <Tab value="history" label={translate('resources.models.details.history')} />
      </Tabs>
      <DialogContent>
        {tab === 'details' ? <ModelDetails model={model} /> : <ResourceHistory resourceType="model" resourceId={model.id} />}
      </DialogContent>
      <DialogActions>
        {toggle ? (
          <WriteOnly>
            <Button
              color={toggle === 'inactive' ? 'warning' : 'success'}
              onClick={() => setStatus.mutate(toggle)}
              disabled={setStatus.isPending}
            >
              {translate(toggle === 'inactive' ? 'resources.models.actions.deactivate' : 'resources.models.actions.activate')}
            </Button>
          </WriteOnly>
        ) : null}
        <Button onClick={onClose}>{translate('resources.models.actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

import { Box, CircularProgress, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import { LoadFailed } from '../layout/load-failure';
import { ModelCard } from './model-card';
import { ModelDetailsDialog } from './model-details-dialog';

interface ModelGridProps {
  models: AdminModel[] | undefined;
  isPending: boolean;
  isError: boolean;
}

/** The cards, newest first, or why there are none: loading, 'Failed to load models' (no sample models), or no models yet. */
export function ModelGrid({ models, isPending, isError }: ModelGridProps) {
  const translate = useTranslate();
  const [detailsId, setDetailsId] = useState<string | null>(null);
  // Looked up on each render, so the dialog shows a status change as soon as the list has it.
  const details = models?.find((model) => model.id === detailsId);

  if (isError && !models) return <LoadFailed message="resources.models.notifications.load_failed" />;
  if (isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={translate('ra.page.loading')} />
      </Box>
    );
  }
  if (!models || models.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {translate('resources.models.card.empty')}
      </Typography>
    );
  }
  return (
    <>
      <Box sx={{ display: 'grid', gap: 2, py: 2, alignItems: 'stretch', gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))' }}>
        {models.map((model) => (
          <ModelCard key={model.id} model={model} onDetails={() => setDetailsId(model.id)} />
        ))}
      </Box>
      {details ? <ModelDetailsDialog model={details} onClose={() => setDetailsId(null)} /> : null}
    </>
  );
}

import ReplayIcon from '@mui/icons-material/Replay';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import { Alert, Box, Button, Card, CardContent, Chip, type ChipProps, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import type { ProjectionState, ProjectionStatus } from '@meshwork/contracts';
import { WriteOnly } from '../auth/use-can-write';
import { useIntlLocale } from '../i18n/intl-locale';
import { LoadFailed } from '../layout/load-failure';
import { SkipEventDialog } from './skip-event-dialog';
import { retryProjection, useProjectionAction, useProjections } from './system-api';

const stateColor: Record<ProjectionState, ChipProps['color']> = {
  up: 'success',
  failing: 'warning',
  stalled: 'error',
  not_running: 'error',
};

type Stuck = ProjectionStatus & { failure: NonNullable<ProjectionStatus['failure']> };

/** A stuck projection: the event it cannot apply, the error, and (for staff) Retry and Skip. */
function StuckDetail({ projection, onSkip }: { projection: Stuck; onSkip: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const intlLocale = useIntlLocale();
  const retry = useProjectionAction<void>(retryProjection);
  const { failure } = projection;
  return (
    <Box sx={{ mt: 1, ml: { sm: 2 } }}>
      <Typography variant="body2">
        {translate('meshwork.dashboard.system.failing_event', {
          position: failure.position,
          type: failure.eventType,
          id: failure.eventId,
        })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('meshwork.dashboard.system.attempts', {
          attempts: failure.attempts,
          since: new Date(failure.firstFailedAt).toLocaleString(intlLocale, { dateStyle: 'short', timeStyle: 'short' }),
        })}
      </Typography>
      <Alert severity="error" icon={false} sx={{ my: 1, fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {failure.error}
      </Alert>
      <WriteOnly>
        <Stack direction="row" sx={{ gap: 1 }}>
          <Button
            size="small"
            variant="outlined"
            startIcon={<ReplayIcon />}
            disabled={retry.isPending}
            onClick={() =>
              retry.mutate(
                { name: projection.name, argument: undefined },
                {
                  onSuccess: () => notify('meshwork.dashboard.system.retried', { type: 'info' }),
                  onError: () => notify('meshwork.dashboard.system.retry_failed', { type: 'error' }),
                },
              )
            }
          >
            {translate('meshwork.dashboard.system.retry')}
          </Button>
          <Button size="small" color="error" startIcon={<SkipNextIcon />} onClick={onSkip}>
            {translate('meshwork.dashboard.system.skip')}
          </Button>
        </Stack>
      </WriteOnly>
    </Box>
  );
}

function ProjectionRow({ projection }: { projection: ProjectionStatus }) {
  const translate = useTranslate();
  const [skipping, setSkipping] = useState(false);
  const stuck = projection.failure ? (projection as Stuck) : null;
  return (
    <Box component="li" aria-label={projection.name} sx={{ py: 1, borderTop: 1, borderColor: 'divider', listStyle: 'none' }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography sx={{ fontFamily: 'monospace', minWidth: 120 }}>{projection.name}</Typography>
        <Chip size="small" color={stateColor[projection.state]} label={translate(`meshwork.dashboard.system.state.${projection.state}`)} />
        {projection.positionsBehind > 0 ? (
          <Typography variant="body2" color="text.secondary">
            {translate('meshwork.dashboard.system.behind', { smart_count: projection.positionsBehind })}
          </Typography>
        ) : null}
      </Stack>
      {stuck ? <StuckDetail projection={stuck} onSkip={() => setSkipping(true)} /> : null}
      {stuck && skipping ? <SkipEventDialog projection={stuck} onClose={() => setSkipping(false)} /> : null}
    </Box>
  );
}

/**
 * The dashboard's System card: every projection (and the Kafka relay) with its state. One
 * that is failing or stalled shows the event it cannot apply and the error, with Retry (after
 * a fix) and Skip (with a reason, on the record).
 */
export function SystemCard() {
  const translate = useTranslate();
  const { data: projections, error } = useProjections();
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="system-card-title">
      <CardContent>
        <Typography id="system-card-title" variant="h6" component="h2">
          {translate('meshwork.dashboard.system.title')}
        </Typography>
        {error ? <LoadFailed message="meshwork.dashboard.system.load_failed" /> : null}
        {!projections && !error ? <Skeleton height={80} /> : null}
        {projections ? (
          <Box component="ul" sx={{ p: 0, m: 0, mt: 1 }}>
            {projections.map((projection) => (
              <ProjectionRow key={projection.name} projection={projection} />
            ))}
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import type { ProjectionStatus } from '@meshwork/contracts';
import { skipProjectionEvent, useProjectionAction } from './system-api';

interface SkipEventDialogProps {
  projection: ProjectionStatus & { failure: NonNullable<ProjectionStatus['failure']> };
  onClose: () => void;
}

/**
 * Skipping is final: the read model will never hold the event. So it asks for the reason
 * (kept in the log with the staff member's name) and says what it does before it is done;
 * Skip stays disabled until there is a reason. A refusal is shown here, the dialog left open.
 */
export function SkipEventDialog({ projection, onClose }: SkipEventDialogProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const [reason, setReason] = useState('');
  const { position, eventType } = projection.failure;
  const skip = useProjectionAction(skipProjectionEvent);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    skip.mutate(
      { name: projection.name, argument: { position, reason: reason.trim() } },
      {
        onSuccess: () => {
          notify('meshwork.dashboard.system.skipped', { type: 'success' });
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={skip.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="skip-event-title">
      <form onSubmit={submit}>
        <DialogTitle id="skip-event-title">{translate('meshwork.dashboard.system.skip_title', { name: projection.name })}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('meshwork.dashboard.system.skip_warning', { name: projection.name, position, type: eventType })}
          </Alert>
          {skip.error ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {skip.error.message}
            </Alert>
          ) : null}
          <DialogContentText>{translate('meshwork.dashboard.system.skip_reason_help')}</DialogContentText>
          <TextField
            label={translate('meshwork.dashboard.system.skip_reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            required
            fullWidth
            multiline
            minRows={2}
            margin="normal"
            autoFocus
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={skip.isPending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={reason.trim() === '' || skip.isPending}>
            {translate('meshwork.dashboard.system.skip_submit', { position })}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

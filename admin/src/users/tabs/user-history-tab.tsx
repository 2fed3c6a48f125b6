import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { ResourceHistory } from '../../audit/resource-history';
import type { AdminUser } from '../admin-user';

// The streams named by the user's own id: the account, its subscription, its networks (one stream for all of them), its dashboard preferences.
const STREAMS = ['user', 'subscription', 'networks', 'preferences'] as const;
type Stream = (typeof STREAMS)[number];

/** The user's History tab: what the event log recorded of the account, or of the other streams kept under their id. */
export function UserHistoryTab() {
  const translate = useTranslate();
  const user = useRecordContext<AdminUser>();
  const [stream, setStream] = useState<Stream>('user');
  if (!user) return null;
  return (
    <>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={stream}
        onChange={(_, chosen: Stream | null) => chosen && setStream(chosen)}
        aria-label={translate('resources.users.history.streams')}
      >
        {STREAMS.map((name) => (
          <ToggleButton key={name} value={name}>
            {translate(`resources.audit.resource_types.${name}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <ResourceHistory resourceType={stream} resourceId={String(user.id)} />
    </>
  );
}

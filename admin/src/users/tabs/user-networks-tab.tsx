import { Chip, Stack, Typography } from '@mui/material';
import { FunctionField, NumberField, TextField, useTranslate } from 'react-admin';
import type { AdminNetwork } from '@meshwork/contracts';
import { useIntlLocale } from '../../i18n/intl-locale';
import { UserDateField } from '../user-fields';
import { UserListTab } from './tab-parts';
import { userNetworksKey } from './user-tabs-api';

const label = (field: string) => `resources.users.networks.fields.${field}`;

/** Active, or suspended with the reason the customer reads (which names the plan change). */
function NetworkStatusField(props: { label: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminNetwork>
      {...props}
      render={(network) =>
        network.status === 'active' ? (
          <Chip size="small" color="success" label={translate('resources.users.networks.status.active')} />
        ) : (
          <Stack sx={{ alignItems: 'flex-start', gap: 0.5 }}>
            <Chip size="small" color="warning" label={translate('resources.users.networks.status.suspended')} />
            <Typography variant="caption" color="text.secondary">
              {network.suspended_reason}
            </Typography>
          </Stack>
        )
      }
    />
  );
}

/** The host by name (as the Devices tab lists it); without a name, its id; without a host, so. */
function HostField(props: { label: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<AdminNetwork>
      {...props}
      render={(network) => network.host_device_name ?? network.host_device_id ?? translate('resources.users.networks.no_host')}
    />
  );
}

/** The user's Networks tab: oldest first, as the customer's own list (the order a plan's cap keeps them). */
export function UserNetworksTab() {
  const intlLocale = useIntlLocale();
  return (
    <UserListTab kind="networks" queryKey={userNetworksKey} load={(dataProvider, userId) => dataProvider.getUserNetworks(userId)}>
      <TextField source="name" label={label('name')} sortable={false} />
      <TextField source="model" label={label('model')} sortable={false} />
      <NetworkStatusField label={label('status')} />
      <HostField label={label('host')} />
      <NumberField source="client_count" label={label('client_count')} locales={intlLocale} sortable={false} />
      <UserDateField source="created_at" label={label('created_at')} sortable={false} />
    </UserListTab>
  );
}

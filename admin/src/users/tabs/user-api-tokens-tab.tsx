import { Chip } from '@mui/material';
import { useState } from 'react';
import { FunctionField, TextField, useDataProvider, useRecordContext, useTranslate, WrapperField } from 'react-admin';
import type { ApiToken } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../../app/data-provider';
import type { AdminUser } from '../admin-user';
import { UserDateField } from '../user-fields';
import { RevokeButton } from './revoke-button';
import { UserListTab } from './tab-parts';
import { userApiTokensKey } from './user-tabs-api';

const label = (field: string) => `resources.users.api_tokens.fields.${field}`;

/** Active, expired or revoked (expired as of when the tab opened). */
function TokenStatusField(props: { label: string }) {
  const translate = useTranslate();
  const [openedAt] = useState(() => Date.now());
  return (
    <FunctionField<ApiToken>
      {...props}
      render={(token) => {
        const status = token.revoked_at ? 'revoked' : token.expires_at && Date.parse(token.expires_at) <= openedAt ? 'expired' : 'active';
        return (
          <Chip
            size="small"
            color={status === 'active' ? 'success' : 'default'}
            variant={status === 'active' ? 'filled' : 'outlined'}
            label={translate(`resources.users.api_tokens.status.${status}`)}
          />
        );
      }}
    />
  );
}

/** Revoke, on an unrevoked token: it is refused from the next request on. */
function RevokeTokenButton({ userId }: { userId: string }) {
  const token = useRecordContext<ApiToken>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  if (!token || token.revoked_at) return null;
  return (
    <RevokeButton
      messages="resources.users.api_tokens"
      name={token.name}
      revoke={() => dataProvider.revokeUserApiToken(userId, token.id)}
      refresh={[userApiTokensKey(userId)]}
    />
  );
}

/** The user's API tokens tab (issue 35): names, scopes and uses, never secrets; Revoke on the live ones. */
export function UserApiTokensTab() {
  const userId = String(useRecordContext<AdminUser>()?.id ?? '');
  return (
    <UserListTab kind="api_tokens" queryKey={userApiTokensKey} load={(dataProvider) => dataProvider.getUserApiTokens(userId)}>
      <TextField source="name" label={label('name')} sortable={false} />
      <FunctionField<ApiToken> label={label('token')} render={(token) => `${token.prefix}…${token.last_four}`} sortable={false} />
      <FunctionField<ApiToken> label={label('scope')} render={(token) => <TokenScope scope={token.scope} />} sortable={false} />
      <UserDateField source="created_at" label={label('created_at')} sortable={false} />
      <UserDateField source="last_used_at" label={label('last_used_at')} sortable={false} />
      <UserDateField source="expires_at" label={label('expires_at')} sortable={false} />
      <TokenStatusField label={label('status')} />
      <WrapperField label={label('actions')} textAlign="right">
        <RevokeTokenButton userId={userId} />
      </WrapperField>
    </UserListTab>
  );
}

function TokenScope({ scope }: { scope: ApiToken['scope'] }) {
  const translate = useTranslate();
  return <>{translate(`resources.plans.api_token_scopes.${scope}`)}</>;
}

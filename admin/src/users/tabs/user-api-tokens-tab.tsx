import BlockIcon from '@mui/icons-material/Block';
import { Chip } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  Confirm,
  Datagrid,
  FunctionField,
  ListContextProvider,
  TextField,
  useDataProvider,
  useList,
  useNotify,
  useRecordContext,
  useTranslate,
  WrapperField,
} from 'react-admin';
import type { ApiToken } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../../app/data-provider';
import { useCanWrite } from '../../auth/use-can-write';
import { LoadFailed } from '../../layout/load-failure';
import type { AdminUser } from '../admin-user';
import { UserDateField } from '../user-fields';
import { NothingYet } from './tab-parts';
import { userApiTokensKey } from './user-tabs-api';
import { useUserQuery } from './use-user-query';

const LOAD_FAILED = 'resources.users.api_tokens.notifications.load_failed';
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

/** Revoke, on an unrevoked token (staff, not auditors), after a confirmation naming it. */
function RevokeTokenButton({ userId }: { userId: string }) {
  const token = useRecordContext<ApiToken>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const canWrite = useCanWrite();
  const revoke = useMutation({
    mutationFn: (tokenId: string) => dataProvider.revokeUserApiToken(userId, tokenId),
    onSuccess: async () => {
      setOpen(false);
      notify('resources.users.api_tokens.notifications.revoked', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: userApiTokensKey(userId) });
    },
    onError: () => notify('resources.users.api_tokens.notifications.revoke_failed', { type: 'error' }),
  });
  if (!token || token.revoked_at || !canWrite) return null;
  return (
    <>
      <Button label="resources.users.api_tokens.actions.revoke" color="warning" onClick={() => setOpen(true)}>
        <BlockIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={revoke.isPending}
        title="resources.users.api_tokens.revoke.title"
        content="resources.users.api_tokens.revoke.content"
        translateOptions={{ name: token.name }}
        confirmColor="warning"
        onConfirm={() => revoke.mutate(token.id)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The user's API tokens tab (issue 35): names, scopes and uses, never secrets; Revoke on the live ones. */
export function UserApiTokensTab() {
  const user = useRecordContext<AdminUser>();
  const userId = String(user?.id ?? '');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending } = useUserQuery(userApiTokensKey(userId), () => dataProvider.getUserApiTokens(userId), LOAD_FAILED);
  const list = useList({ data, isPending });
  if (error) return <LoadFailed message={LOAD_FAILED} />;
  return (
    <ListContextProvider value={list}>
      <Datagrid bulkActionButtons={false} rowClick={false} empty={<NothingYet message="resources.users.api_tokens.none" />}>
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
      </Datagrid>
    </ListContextProvider>
  );
}

function TokenScope({ scope }: { scope: ApiToken['scope'] }) {
  const translate = useTranslate();
  return <>{translate(`resources.plans.api_token_scopes.${scope}`)}</>;
}

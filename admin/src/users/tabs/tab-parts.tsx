import { Typography } from '@mui/material';
import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Datagrid, ListContextProvider, type RaRecord, useDataProvider, useList, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../app/data-provider';
import { LoadFailed } from '../../layout/load-failure';
import type { AdminUser } from '../admin-user';
import { useUserQuery } from './use-user-query';

/** What a tab shows when the user has nothing to list yet. */
function NothingYet({ message }: { message: string }) {
  const translate = useTranslate();
  return (
    <Typography color="text.secondary" sx={{ p: 2 }}>
      {translate(message)}
    </Typography>
  );
}

/**
 * A tab of the shown user listing one kind of their things (`kind`: the i18n key under
 * `resources.users`): loaded when the tab opens, with `children` as the columns; when the load
 * gives up, its message instead of the list (and a toast, see useUserQuery); NothingYet when empty.
 */
export function UserListTab<T extends RaRecord>({
  kind,
  queryKey,
  load,
  children,
}: {
  kind: string;
  queryKey: (userId: string) => QueryKey;
  load: (dataProvider: ConsoleDataProvider, userId: string) => Promise<T[]>;
  children: ReactNode;
}) {
  const user = useRecordContext<AdminUser>();
  const userId = String(user?.id ?? '');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const loadFailed = `resources.users.${kind}.notifications.load_failed`;
  const { data, error, isPending } = useUserQuery(queryKey(userId), () => load(dataProvider, userId), loadFailed);
  const list = useList({ data, isPending });
  if (error) return <LoadFailed message={loadFailed} />;
  return (
    <ListContextProvider value={list}>
      <Datagrid bulkActionButtons={false} rowClick={false} empty={<NothingYet message={`resources.users.${kind}.none`} />}>
        {children}
      </Datagrid>
    </ListContextProvider>
  );
}

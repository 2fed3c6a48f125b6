import { Alert, Box, Button, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { DesktopRelease } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../../app/data-provider';
import { useCanWrite, WriteOnly } from '../../auth/use-can-write';
import { useIntlLocale } from '../../i18n/intl-locale';
import { catalogKeys } from '../catalog-api';
import { formatDateTime, formatMegabytes } from '../model-format';
import { ReleaseUploadForm } from './release-upload-form';

type ReleasePatch = { is_stable?: boolean; is_active?: boolean };

/** The desktop app's releases (spec section 3, "Desktop app version"): the list; for staff a new-release form, Mark Stable and Activate/Deactivate. */
export function DesktopReleases() {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const releases = useQuery({ queryKey: catalogKeys.releases, queryFn: () => dataProvider.getDesktopReleases() });
  const reload = () => queryClient.invalidateQueries({ queryKey: catalogKeys.releases });

  const update = useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: ReleasePatch }) => dataProvider.updateDesktopRelease(id, patch),
    // Marking one stable may unmark another: read the list again rather than patch one row.
    onSuccess: () => {
      notify('resources.models.releases.notifications.updated', { type: 'success' });
      return reload();
    },
    onError: () => notify('resources.models.releases.notifications.update_failed', { type: 'error' }),
  });

  const canWrite = useCanWrite();
  const field = (name: string) => translate(`resources.models.releases.fields.${name}`);
  const columns = [
    'version',
    'releaseDate',
    'fileSize',
    'isStable',
    'isActive',
    'downloadCount',
    'releaseNotes',
    ...(canWrite ? ['actions'] : []),
  ];
  const rows: DesktopRelease[] = releases.data ?? [];
  return (
    <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
      <WriteOnly>
        <ReleaseUploadForm onCreated={() => void reload()} />
      </WriteOnly>
      <Typography variant="h6" component="h2">
        {translate('resources.models.releases.title')}
      </Typography>
      {releases.isError ? <Alert severity="error">{translate('resources.models.releases.notifications.load_failed')}</Alert> : null}
      {releases.isSuccess && rows.length === 0 ? (
        <Typography color="text.secondary">{translate('resources.models.releases.empty')}</Typography>
      ) : null}
      {rows.length > 0 ? (
        <Table size="small" aria-label={translate('resources.models.releases.title')}>
          <TableHead>
            <TableRow>
              {columns.map((name) => (
                <TableCell key={name}>{field(name)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((release) => (
              <TableRow key={release.id}>
                <TableCell component="th" scope="row">
                  {release.version}
                </TableCell>
                <TableCell>{formatDateTime(release.releaseDate, intlLocale)}</TableCell>
                <TableCell>{formatMegabytes(release.fileSize)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={release.isStable ? 'success' : 'default'}
                    label={translate(`resources.models.releases.flags.${release.isStable ? 'stable' : 'beta'}`)}
                  />
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={release.isActive ? 'success' : 'default'}
                    label={translate(`resources.models.releases.flags.${release.isActive ? 'active' : 'inactive'}`)}
                  />
                </TableCell>
                <TableCell>{release.downloadCount.toLocaleString(intlLocale)}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', maxWidth: 320 }}>{release.releaseNotes}</TableCell>
                {canWrite ? (
                  <TableCell>
                    <Stack direction="row" sx={{ gap: 1 }}>
                      {release.isStable ? null : (
                        <Button
                          size="small"
                          disabled={update.isPending}
                          onClick={() => update.mutate({ id: release.id, patch: { is_stable: true } })}
                        >
                          {translate('resources.models.releases.actions.mark_stable')}
                        </Button>
                      )}
                      <Button
                        size="small"
                        color={release.isActive ? 'warning' : 'success'}
                        disabled={update.isPending}
                        onClick={() => update.mutate({ id: release.id, patch: { is_active: !release.isActive } })}
                      >
                        {translate(`resources.models.releases.actions.${release.isActive ? 'deactivate' : 'activate'}`)}
                      </Button>
                    </Stack>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </Box>
  );
}

import { Alert, Box, Button, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { DesktopRelease } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../../app/data-provider';
import { useCanWrite, WriteOnly } from '../../auth/use-can-write';
import { useIntlLocale } from '../../i18n/intl-locale';
import { catalogKeys, type ReleasePatch } from '../catalog-api';
import { formatBytes, formatDateTime, formatMegabytes } from '../model-format';
import { CurrentDownloads } from './current-downloads';
import { ReleaseUploadForm } from './release-upload-form';

const PUBLISH: ReleasePatch = { is_stable: true, is_active: true };
const WITHDRAW: ReleasePatch = { is_active: false };

/** A release's files, the ones customers get now marked. */
function ReleaseFiles({ release }: { release: DesktopRelease }) {
  const translate = useTranslate();
  return (
    <Stack component="ul" sx={{ m: 0, p: 0, listStyle: 'none', gap: 0.5 }}>
      {release.files.map((file) => (
        <Box component="li" key={file.fileName} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" component="span">
            {file.label}: {file.fileName} ({formatBytes(file.size)})
          </Typography>
          {file.current ? <Chip size="small" color="success" label={translate('resources.models.releases.current.offered')} /> : null}
        </Box>
      ))}
    </Stack>
  );
}

/**
 * The desktop app's releases (spec section 3, "Desktop app version"): what customers get now
 * per platform, the list (the installation's own build first, read-only), and for staff the
 * upload form, Publish (stable and active in one step) and Withdraw.
 */
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
    // Publishing one changes which files every other release offers: read the list again.
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
    'files',
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
      {releases.isSuccess ? <CurrentDownloads releases={rows} /> : null}
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
            {rows.map((release) => {
              const live = release.isStable && release.isActive;
              return (
                <TableRow key={release.id}>
                  <TableCell component="th" scope="row">
                    {release.version}
                    {release.builtIn ? (
                      <Chip size="small" sx={{ ml: 1 }} label={translate('resources.models.releases.flags.built_in')} />
                    ) : null}
                  </TableCell>
                  <TableCell>{formatDateTime(release.releaseDate, intlLocale)}</TableCell>
                  <TableCell>
                    <ReleaseFiles release={release} />
                  </TableCell>
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
                  <TableCell sx={{ whiteSpace: 'pre-wrap', maxWidth: 320 }}>
                    {release.builtIn ? translate('resources.models.releases.built_in_notes') : release.releaseNotes}
                  </TableCell>
                  {canWrite ? (
                    <TableCell>
                      {release.builtIn ? null : (
                        <Stack direction="row" sx={{ gap: 1 }}>
                          {live ? null : (
                            <Button
                              size="small"
                              color="success"
                              variant="contained"
                              disabled={update.isPending}
                              onClick={() => update.mutate({ id: release.id, patch: PUBLISH })}
                            >
                              {translate('resources.models.releases.actions.publish')}
                            </Button>
                          )}
                          {release.isActive ? (
                            <Button
                              size="small"
                              color="warning"
                              disabled={update.isPending}
                              onClick={() => update.mutate({ id: release.id, patch: WITHDRAW })}
                            >
                              {translate('resources.models.releases.actions.withdraw')}
                            </Button>
                          ) : null}
                        </Stack>
                      )}
                    </TableCell>
                  ) : null}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      ) : null}
    </Box>
  );
}

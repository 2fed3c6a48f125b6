import AttachFileIcon from '@mui/icons-material/AttachFile';
import { Box, Button, Card, CardContent, LinearProgress, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { useLogoutIfAccessDenied, useNotify, useTranslate } from 'react-admin';
import type { DesktopRelease } from '@meshwork/contracts';
import { API_BASE } from '../../auth/site-urls';
import { formatBytes } from '../model-format';
import { postMultipart } from '../upload/multipart-request';

// As the contract's ReleaseFields: three dot-separated numbers.
const VERSION = /^\d+\.\d+\.\d+$/;

/**
 * Publish a desktop release: version, release notes, the installer (POST
 * /models/admin/releases/, multipart, text fields before the file). The server decides
 * whether it becomes stable or active; both can be changed from the list.
 */
export function ReleaseUploadForm({ onCreated }: { onCreated: (release: DesktopRelease) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const input = useRef<HTMLInputElement>(null);
  const [version, setVersion] = useState('');
  const [notes, setNotes] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const versionInvalid = version.trim() !== '' && !VERSION.test(version.trim());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || !VERSION.test(version.trim())) return;
    const form = new FormData();
    form.append('version', version.trim());
    form.append('release_notes', notes.trim());
    form.append('file', file, file.name);
    setPercent(0);
    try {
      const release = await postMultipart<DesktopRelease>(`${API_BASE}/models/admin/releases/`, form, {
        onProgress: (fraction) => setPercent(Math.floor(fraction * 100)),
      });
      notify('resources.models.releases.notifications.created', { type: 'success', messageArgs: { version: release.version } });
      setVersion('');
      setNotes('');
      setFile(null);
      onCreated(release);
    } catch (error) {
      if (!(await logoutIfAccessDenied(error))) notify('resources.models.releases.notifications.create_failed', { type: 'error' });
    } finally {
      setPercent(null);
    }
  };

  const busy = percent !== null;
  return (
    <Card variant="outlined" component="form" onSubmit={submit} noValidate aria-label={translate('resources.models.releases.form.title')}>
      <CardContent sx={{ display: 'grid', gap: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {translate('resources.models.releases.form.title')}
        </Typography>
        <TextField
          label={translate('resources.models.releases.fields.version')}
          value={version}
          onChange={(event) => setVersion(event.target.value)}
          error={versionInvalid}
          helperText={translate(
            versionInvalid ? 'resources.models.releases.form.version_invalid' : 'resources.models.releases.form.version_hint',
          )}
          disabled={busy}
          required
          size="small"
        />
        <TextField
          label={translate('resources.models.releases.fields.releaseNotes')}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
          disabled={busy}
          multiline
          rows={3}
          size="small"
        />
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <Button variant="outlined" startIcon={<AttachFileIcon />} onClick={() => input.current?.click()} disabled={busy}>
            {translate('resources.models.releases.form.choose_file')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {file ? `${file.name} (${formatBytes(file.size)})` : translate('resources.models.releases.form.no_file')}
          </Typography>
          <input
            ref={input}
            type="file"
            hidden
            data-testid="release-file-input"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              event.target.value = '';
            }}
          />
        </Stack>
        {busy ? <LinearProgress variant="determinate" value={percent} /> : null}
        <Box>
          <Button type="submit" variant="contained" disabled={busy || !file || !VERSION.test(version.trim())}>
            {translate(busy ? 'resources.models.releases.form.publishing' : 'resources.models.releases.form.submit')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

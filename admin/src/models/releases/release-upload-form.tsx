import AttachFileIcon from '@mui/icons-material/AttachFile';
import { Box, Button, Card, CardContent, Checkbox, FormControlLabel, LinearProgress, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { HttpError, useLogoutIfAccessDenied, useNotify, useTranslate } from 'react-admin';
import {
  DESKTOP_FORMAT_ORDER,
  DESKTOP_FORMATS,
  type DesktopPlatform,
  type DesktopRelease,
  desktopFormatOf,
  DesktopPlatform as Platforms,
} from '@meshwork/contracts';
import { API_BASE } from '../../auth/site-urls';
import { formatBytes } from '../model-format';
import { postMultipart } from '../upload/multipart-request';

// As the contract's ReleaseFields: three dot-separated numbers.
const VERSION = /^\d+\.\d+\.\d+$/;

const extensionsOf = (platform: DesktopPlatform) =>
  DESKTOP_FORMAT_ORDER.filter((f) => DESKTOP_FORMATS[f].platform === platform)
    .map((f) => DESKTOP_FORMATS[f].extension)
    .join(', ');

/** Whether the file's extension suits the platform (the server checks the same). */
const suits = (platform: DesktopPlatform, file: File) => {
  const format = desktopFormatOf(file.name);
  return format !== null && DESKTOP_FORMATS[format].platform === platform;
};

/** The server's own words for a refusal (a field error, say), if it gave some. */
const reasonOf = (error: unknown): string =>
  error instanceof HttpError && typeof (error.body as { message?: unknown } | null)?.message === 'string'
    ? (error.body as { message: string }).message
    : error instanceof Error
      ? error.message
      : '';

/**
 * Upload one file of a desktop release (POST /admin-panel/models/releases/, multipart, text fields
 * before the file): version, release notes, its platform (chosen from the file's extension,
 * which must suit it) and, with "Publish now", stable and active at once. Without it the
 * release waits, Pre-release and Inactive, for Publish in the list.
 */
export function ReleaseUploadForm({ onCreated }: { onCreated: (release: DesktopRelease) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  const input = useRef<HTMLInputElement>(null);
  const [version, setVersion] = useState('');
  const [notes, setNotes] = useState('');
  const [platform, setPlatform] = useState<DesktopPlatform>('windows');
  const [publish, setPublish] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const versionInvalid = version.trim() !== '' && !VERSION.test(version.trim());
  const fileWrong = file !== null && !suits(platform, file);
  const ready = file !== null && !fileWrong && VERSION.test(version.trim());
  const platformName = (p: DesktopPlatform) => translate(`resources.models.releases.platforms.${p}`);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    // The extension names the platform; staff may still change it (and are told if it does not suit).
    const format = chosen ? desktopFormatOf(chosen.name) : null;
    if (format) setPlatform(DESKTOP_FORMATS[format].platform);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const form = new FormData();
    form.append('version', version.trim());
    form.append('release_notes', notes.trim());
    form.append('platform', platform);
    form.append('publish', String(publish));
    form.append('file', file, file.name);
    setPercent(0);
    try {
      const release = await postMultipart<DesktopRelease>(`${API_BASE}/admin-panel/models/releases/`, form, {
        onProgress: (fraction) => setPercent(Math.floor(fraction * 100)),
      });
      notify(`resources.models.releases.notifications.${publish ? 'published' : 'created'}`, {
        type: 'success',
        messageArgs: { version: release.version },
      });
      setVersion('');
      setNotes('');
      setFile(null);
      setPublish(false);
      onCreated(release);
    } catch (error) {
      if (!(await logoutIfAccessDenied(error)))
        notify('resources.models.releases.notifications.create_failed', { type: 'error', messageArgs: { reason: reasonOf(error) } });
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
        <Typography variant="body2" color="text.secondary">
          {translate('resources.models.releases.form.intro')}
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
        <TextField
          select
          label={translate('resources.models.releases.fields.platform')}
          value={platform}
          onChange={(event) => setPlatform(event.target.value as DesktopPlatform)}
          helperText={translate('resources.models.releases.form.platform_hint')}
          disabled={busy}
          required
          size="small"
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          {Platforms.options.map((p) => (
            <option key={p} value={p}>
              {platformName(p)}
            </option>
          ))}
        </TextField>
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
            accept=".exe,.zip,.deb,.tar.gz,.gz"
            data-testid="release-file-input"
            onChange={(event) => {
              choose(event.target.files?.[0] ?? null);
              event.target.value = '';
            }}
          />
        </Stack>
        {fileWrong ? (
          <Typography variant="body2" color="error" role="alert">
            {translate('resources.models.releases.form.wrong_file', {
              platform: platformName(platform),
              extensions: extensionsOf(platform),
            })}
          </Typography>
        ) : null}
        <FormControlLabel
          control={<Checkbox checked={publish} onChange={(event) => setPublish(event.target.checked)} disabled={busy} />}
          label={translate('resources.models.releases.form.publish_now')}
        />
        {busy ? <LinearProgress variant="determinate" value={percent} /> : null}
        <Box>
          <Button type="submit" variant="contained" disabled={busy || !ready}>
            {translate(busy ? 'resources.models.releases.form.publishing' : 'resources.models.releases.form.submit')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

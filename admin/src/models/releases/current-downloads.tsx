import { Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DESKTOP_FORMAT_ORDER, type DesktopPlatform, DesktopPlatform as Platforms, type DesktopRelease } from '@meshwork/contracts';

/** One line per file customers get now: its kind, version and where it comes from. */
function lineOf(translate: ReturnType<typeof useTranslate>, release: DesktopRelease, file: DesktopRelease['files'][number]): string {
  const args = { label: file.label, version: release.version, file: file.fileName };
  return translate(`resources.models.releases.current.${release.builtIn ? 'built_in' : 'file'}`, args);
}

/**
 * What customers get now, per platform, in plain words: each file offered (a staff release's,
 * or "built by this installation"), or nothing, with the reason the build gave when it could
 * not make one. Read from the list's `current` flags, so it says what the api serves.
 */
export function CurrentDownloads({ releases }: { releases: readonly DesktopRelease[] }) {
  const translate = useTranslate();
  const offered = releases.flatMap((release) => release.files.filter((f) => f.current).map((file) => ({ release, file })));
  const builtIn = releases.find((r) => r.builtIn);
  const order = (format: string | null) => DESKTOP_FORMAT_ORDER.indexOf(format as (typeof DESKTOP_FORMAT_ORDER)[number]);
  const platformName = (p: DesktopPlatform) => translate(`resources.models.releases.platforms.${p}`);
  const title = translate('resources.models.releases.current.title');
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent sx={{ display: 'grid', gap: 1.5 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {Platforms.options.map((platform) => {
          const mine = offered.filter(({ file }) => file.platform === platform).sort((a, b) => order(a.file.format) - order(b.file.format));
          const skipped = builtIn?.skipped.find((s) => s.platform === platform);
          return (
            <Stack key={platform} component="section" aria-label={platformName(platform)} sx={{ gap: 0.25 }}>
              <Typography variant="body2" component="h4" sx={{ fontWeight: 600 }}>
                {platformName(platform)}
              </Typography>
              {mine.map(({ release, file }) => (
                <Typography key={`${release.id}/${file.fileName}`} variant="body2">
                  {lineOf(translate, release, file)}
                </Typography>
              ))}
              {mine.length === 0 ? (
                <Typography variant="body2" color="warning.main">
                  {translate('resources.models.releases.current.nothing', { platform: platformName(platform) })}
                </Typography>
              ) : null}
              {skipped && mine.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {translate('resources.models.releases.current.skipped', { reason: skipped.reason })}
                </Typography>
              ) : null}
            </Stack>
          );
        })}
        <Typography variant="body2" color="text.secondary">
          {translate('resources.models.releases.current.mac')}
        </Typography>
      </CardContent>
    </Card>
  );
}

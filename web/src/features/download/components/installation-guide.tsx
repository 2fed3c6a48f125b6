import { Button } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { useInstallationGuide } from '../api/get-installation-guide';
import { useVisitorPlatform } from '../platform/visitor-platform';
import { PlatformSteps, StepText } from './install-steps';

/** The installation steps the api serves, numbered, then each platform's: the visitor's first. */
export function InstallationGuide() {
  const guide = useInstallationGuide();
  const platform = useVisitorPlatform();
  const platforms = [...(guide.data?.platforms ?? [])].sort((a, b) => Number(b.platform === platform) - Number(a.platform === platform));
  return (
    <RegionCard title={guide.data?.title ?? 'Installation Guide'}>
      {guide.isPending && <Spinner className="size-5" />}
      {guide.isError && (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-400">The installation steps could not be loaded.</p>
          <Button variant="secondary" className="mt-4" onClick={() => void guide.refetch()} disabled={guide.isFetching}>
            Try Again
          </Button>
        </>
      )}
      {guide.data && (
        <>
          <ol className="space-y-4">
            {guide.data.steps.map((step, index) => (
              <li key={index} className="flex gap-3 text-sm leading-6 text-slate-600 dark:text-slate-400">
                <span
                  aria-hidden
                  className="flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white dark:bg-brand-500 dark:text-slate-950"
                >
                  {index + 1}
                </span>
                <span>
                  <StepText text={step} />
                </span>
              </li>
            ))}
          </ol>
          {platforms.map((steps) => (
            <PlatformSteps key={steps.platform} guide={steps} />
          ))}
        </>
      )}
    </RegionCard>
  );
}

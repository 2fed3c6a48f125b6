import type { InstallationGuide } from '@meshwork/contracts';
import { Fragment } from 'react';

/** A step's text with its `commands` and `file names` set as code, as the guide marks them. */
export function StepText({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, index) =>
        index % 2 === 1 ? (
          <code
            key={index}
            className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.8em] text-slate-800 dark:bg-slate-800 dark:text-slate-100"
          >
            {part}
          </code>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** One platform's installation steps, numbered, under a heading that names the platform. */
export function PlatformSteps({
  guide,
  headingLevel = 'h3',
}: {
  guide: InstallationGuide['platforms'][number];
  headingLevel?: 'h3' | 'h4';
}) {
  const Heading = headingLevel;
  return (
    <section aria-label={`Install on ${guide.title}`} className="mt-4">
      <Heading className="text-sm font-semibold text-slate-900 dark:text-white">Install on {guide.title}</Heading>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm leading-6 text-slate-600 dark:text-slate-400">
        {guide.steps.map((step, index) => (
          <li key={index}>
            <StepText text={step} />
          </li>
        ))}
      </ol>
    </section>
  );
}

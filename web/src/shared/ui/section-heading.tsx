import type { ReactNode } from 'react';

/** The eyebrow, title and lead of a marketing section. */
export function SectionHeading({ eyebrow, title, lead, id }: { eyebrow?: string; title: ReactNode; lead?: ReactNode; id?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      {eyebrow && <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">{eyebrow}</p>}
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
        {title}
      </h2>
      {lead && <p className="mt-4 text-lg text-slate-600 dark:text-slate-400">{lead}</p>}
    </div>
  );
}

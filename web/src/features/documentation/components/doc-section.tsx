import type { ReactNode } from 'react';

export function DocSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-24 border-b border-slate-200 py-10 first:pt-0 last:border-0 dark:border-slate-800"
    >
      <h2 id={`${id}-title`} className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
        {title}
      </h2>
      <div className="mt-4 space-y-4 leading-7 text-slate-600 dark:text-slate-400">{children}</div>
    </section>
  );
}

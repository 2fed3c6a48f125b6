import type { ReactNode } from 'react';

/** The frame of the legal placeholders until counsel supplies the final text. */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      <div className="mt-8 space-y-4 leading-7 text-slate-600 dark:text-slate-400">{children}</div>
    </article>
  );
}

import type { ReactNode } from 'react';

/** A name, path or command inside a sentence. */
export function InlineCode({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-slate-100 px-1.5 py-0.5 text-sm break-words text-slate-800 dark:bg-slate-800 dark:text-slate-200">
      {children}
    </code>
  );
}

/** A heading inside a section. */
export function DocHeading({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <h3 id={id} className="scroll-mt-24 pt-2 text-lg font-semibold text-slate-900 dark:text-white">
      {children}
    </h3>
  );
}

/** Numbered steps to follow in order. */
export function Steps({ children }: { children: ReactNode }) {
  return <ol className="list-decimal space-y-2 pl-6 marker:font-semibold marker:text-brand-700 dark:marker:text-brand-300">{children}</ol>;
}

/** A word the customer sees on screen (a button, a section of the app), as it is written there. */
export function Ui({ children }: { children: ReactNode }) {
  return <strong className="font-semibold text-slate-900 dark:text-white">{children}</strong>;
}

import type { ComponentPropsWithRef } from 'react';

/** A bordered surface that reads well in both themes. */
export function Card({ className = '', ...props }: ComponentPropsWithRef<'div'>) {
  return (
    <div
      className={`rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900 ${className}`}
      {...props}
    />
  );
}

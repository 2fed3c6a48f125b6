import { LoaderCircle } from 'lucide-react';

export function Spinner({ className = 'size-4' }: { className?: string }) {
  return <LoaderCircle className={`animate-spin ${className}`} aria-hidden />;
}

/** Fills the content area while something the page needs is loading. */
export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center gap-3 text-slate-500 dark:text-slate-400">
      <Spinner className="size-6" />
      <span className="text-sm">{label}</span>
    </div>
  );
}

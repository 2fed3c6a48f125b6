/** A progress bar for a transfer; without a percent it is indeterminate (the size is unknown). */
export function DownloadProgressBar({ label, percent }: { label: string; percent: number | null }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuenow={percent ?? undefined}
      aria-valuemin={0}
      aria-valuemax={100}
      className="mt-4 h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
    >
      <div
        className={`h-full bg-brand-600 transition-all dark:bg-brand-400 ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
        style={percent === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}

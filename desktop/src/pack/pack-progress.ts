/**
 * How packing shows where it is. On a terminal: one line on stderr, rewritten in place, with a
 * bar, the model's bytes converted so far and the time left. Anywhere else (a log, CI): only
 * the line the packer prints per block, so a log stays readable.
 */

/** Where packing is: what it does now, and how many of the model's tensor bytes it has read. */
export interface PackProgress {
  /** 1-based. */
  block: number;
  blocks: number;
  step: string;
  bytesDone: number;
  bytesTotal: number;
}

/** A stream as the reporter needs it (process.stdout and process.stderr are ones). */
export interface TextStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** `75 s` → `1 min 15 s`; hours past an hour. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`;
}

/**
 * The terminal line: `[#####-----]  42% 105/253 MB · block 1 of 3: read layer 4 of 18 · 12 s left`.
 * The time left assumes the rest goes as fast as what is done (packing's cost is linear in bytes).
 */
export function progressLine(progress: PackProgress, elapsedMs: number, width = 24): string {
  const { bytesDone, bytesTotal, step } = progress;
  const share = bytesTotal > 0 ? Math.min(1, bytesDone / bytesTotal) : 0;
  const filled = Math.round(share * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  const megabytes = (bytes: number) => (bytes / 1e6).toFixed(0);
  // Under a second of work (or none) says too little about the rest.
  const left =
    share > 0 && elapsedMs >= 1000 ? `${formatDuration(((elapsedMs / 1000) * (1 - share)) / share)} left` : 'estimating the time left';
  return `${bar} ${(share * 100).toFixed(0).padStart(3)}% ${megabytes(bytesDone)}/${megabytes(bytesTotal)} MB · ${step} · ${left}`;
}

/**
 * The packer's `progress` and `log` for a command line: block lines go to `out`; the bar goes
 * to `err` only when it is a terminal, at most every `intervalMs`, cleared before each block line.
 */
export function progressReporter(out: TextStream, err: TextStream, now = () => Date.now(), intervalMs = 100) {
  const started = now();
  let shownAt = -Infinity;
  let shown = '';
  const clear = () => {
    if (shown) err.write('\r\x1b[2K');
    shown = '';
  };
  return {
    progress(progress: PackProgress): void {
      const at = now();
      if (!err.isTTY || at - shownAt < intervalMs) return;
      shown = progressLine(progress, at - started);
      err.write(`\r\x1b[2K${shown}`);
      shownAt = at;
    },
    log(line: string): void {
      const bar = shown;
      clear();
      out.write(`${line}\n`);
      if (bar) {
        err.write(bar);
        shown = bar;
      }
    },
    /** Clears the bar, before the summary. */
    finish: clear,
  };
}

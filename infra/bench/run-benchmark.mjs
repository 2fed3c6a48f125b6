import os from 'node:os';

/**
 * Runs a benchmark's `main`, then its `cleanup` whether it finished, failed or was interrupted
 * (Ctrl-C, or SIGTERM from a CI timeout; `interrupted` says what the cleanup undoes). The
 * cleanup runs once. A failure sets the exit code.
 */
export async function runBenchmark(main, cleanup, interrupted) {
  let cleaning;
  let stopped = false;
  const cleanupOnce = () => (cleaning ??= cleanup());
  for (const signal of ['SIGINT', 'SIGTERM']) {
    // once: a second Ctrl-C during the cleanup ends the process at once.
    process.once(signal, () => {
      stopped = true;
      process.stdout.write(`\ninterrupted: ${interrupted}\n`);
      cleanupOnce().finally(() => process.exit(128 + os.constants.signals[signal]));
    });
  }
  try {
    await main();
  } catch (error) {
    process.exitCode = 1;
    // Interrupted, main fails as the cleanup pulls things from under it: not news.
    if (!stopped) console.error(error);
  } finally {
    await cleanupOnce();
  }
}

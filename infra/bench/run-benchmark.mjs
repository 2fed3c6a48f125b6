/**
 * Runs a benchmark's `main`, then its `cleanup` whether it finished, failed or was interrupted
 * (Ctrl-C; `interrupted` says what the cleanup undoes). A failure sets the exit code.
 */
export async function runBenchmark(main, cleanup, interrupted) {
  process.on('SIGINT', () => {
    process.stdout.write(`\ninterrupted: ${interrupted}\n`);
    cleanup().finally(() => process.exit(130));
  });
  try {
    await main();
  } catch (error) {
    process.exitCode = 1;
    console.error(error);
  } finally {
    await cleanup();
  }
}

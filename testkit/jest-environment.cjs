const { TestEnvironment } = require('jest-environment-node');

/**
 * Node's test environment, plus: when a test or hook fails, each section the test file's testkit
 * parts added (testkit/src/failure-report.ts: the open browser pages, the api's errors) is
 * printed beside the failure, so a test that fails once in CI can be read from CI's log.
 */
class MeshworkEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name !== 'test_fn_failure' && event.name !== 'hook_failure') return;
    const sections = this.global.__meshworkFailureReports;
    if (typeof sections?.entries !== 'function') return; // a Map of the test's own realm
    const name = event.test?.name ?? `${event.hook?.type ?? 'hook'}`;
    for (const [title, section] of sections) {
      const described = await section(name).catch((error) => `(could not be read: ${error.message})`);
      if (described) process.stderr.write(`\n${title} when “${name}” failed:\n${described}\n\n`);
    }
  }
}

module.exports = MeshworkEnvironment;

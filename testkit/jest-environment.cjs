const { TestEnvironment } = require('jest-environment-node');

/**
 * Node's test environment, plus: when a test or hook fails, what its open browser pages show and
 * wait on is printed beside the failure (testkit/src/page-watch.ts), so a browser test that fails
 * once in CI can be read from CI's log rather than guessed at.
 */
class MeshworkEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name !== 'test_fn_failure' && event.name !== 'hook_failure') return;
    const report = this.global.__meshworkFailureReport;
    if (typeof report !== 'function') return;
    const name = event.test?.name ?? `${event.hook?.type ?? 'hook'}`;
    const described = await report(name).catch((error) => `(the pages could not be read: ${error.message})`);
    if (described) process.stderr.write(`\nopen pages when “${name}” failed:\n${described}\n\n`);
  }
}

module.exports = MeshworkEnvironment;

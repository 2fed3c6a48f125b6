// The loopback servers as one command (npm test, a benchmark) uses them: it starts those not
// running and at the end stops only those, so servers another command started keep running.
// CommonJS, so the ESM scripts and the Jest (CommonJS) spec beside it can both load it.

/**
 * Over infra's `up` and `down` (infra/lib/index.mjs): `start(list)` starts the named servers
 * (default: all) and resolves with up's report; `stop()` stops exactly the ones this start
 * launched, on success, failure or interruption, and is safe to call twice or before `start`.
 */
function ownServers({ up, down }) {
  const started = [];
  let starting = Promise.resolve();
  return {
    start(list) {
      // Noted as each answers: when another fails, up rejects, and these must still be stopped.
      const report = up(list, { onResult: (result) => result.started && started.push(result.name) });
      starting = report.catch(() => undefined);
      return report;
    },
    async stop() {
      // Interrupted during a start: let it finish, so the server it is launching is stopped too.
      await starting;
      // down([]) means every server: never call it with nothing started.
      const names = started.splice(0);
      if (names.length > 0) await down(names);
    },
  };
}

module.exports = { ownServers };

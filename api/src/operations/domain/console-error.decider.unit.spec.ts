import { given } from '../../platform/testing/given-when-then';
import { consoleErrorDecider } from './console-error.decider';

const at = new Date('2026-11-25T10:00:00Z');
const report = { errorId: 'e1', screen: 'users.list', message: 'x is undefined', stack: 'at y', url: 'https://console/admin/users' };

describe('console error decider', () => {
  it('records a crash once', () => {
    given(consoleErrorDecider)
      .when({ type: 'ReportConsoleError', at, ...report })
      .then([{ type: 'ConsoleErrorReported', data: report }]);
    given(consoleErrorDecider, [{ type: 'ConsoleErrorReported', data: report }])
      .when({ type: 'ReportConsoleError', at, ...report })
      .then([]);
  });
});

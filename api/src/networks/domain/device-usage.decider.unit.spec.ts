import { given } from '../../platform/testing/given-when-then';
import { deviceUsageDecider, type DeviceUsageEvent, usageStreamKey } from './device-usage.decider';

const hour = '2026-03-01T10:00:00.000Z';
const at = new Date('2026-03-01T10:20:00Z');
const figures = (requests: number, promptTokens = requests * 10, completionTokens = requests * 20, busyMs = requests * 100) => ({
  requests,
  promptTokens,
  completionTokens,
  busyMs,
});
const report = (model: string, f = figures(1), when = at, forHour = hour) => ({
  type: 'ReportUsage' as const,
  at: when,
  deviceId: 'd1',
  userId: 'u1',
  hour: forHour,
  reports: [{ model, ...f }],
});
const reported = (model: string, f = figures(1)): DeviceUsageEvent => ({
  type: 'DeviceUsageReported',
  data: { deviceId: 'd1', userId: 'u1', hour, model, ...f },
});

describe('device usage decider', () => {
  describe('when nothing was reported for the hour', () => {
    it('records the figures of each model', () => {
      given(deviceUsageDecider)
        .when(report('smollm2'))
        .then([reported('smollm2')]);
    });
    it('refuses an hour in the future beyond the clock skew, and one older than 90 days', () => {
      given(deviceUsageDecider)
        .when(report('smollm2', figures(1), at, '2026-03-01T12:00:00.000Z'))
        .thenThrows(/future/);
      given(deviceUsageDecider)
        .when(report('smollm2', figures(1), new Date('2026-05-31T11:00:00Z')))
        .thenThrows(/90 days/);
    });
    it('takes the next hour when the device clock runs a few minutes fast', () => {
      const fast = report('smollm2', figures(1), new Date('2026-03-01T10:55:00Z'), '2026-03-01T11:00:00.000Z');
      given(deviceUsageDecider)
        .when(fast)
        .then([{ type: 'DeviceUsageReported', data: { ...reported('smollm2').data, hour: '2026-03-01T11:00:00.000Z' } }]);
    });
  });

  describe('when the hour has figures', () => {
    it('records nothing for a resend or an older report: nothing counts twice', () => {
      given(deviceUsageDecider, [reported('smollm2', figures(3))])
        .when(report('smollm2', figures(3)))
        .then([]);
      given(deviceUsageDecider, [reported('smollm2', figures(3))])
        .when(report('smollm2', figures(2)))
        .then([]);
    });
    it('records the larger cumulative figures, never less than it held', () => {
      given(deviceUsageDecider, [reported('smollm2', figures(3))])
        .when(report('smollm2', figures(2, 500, 10, 10)))
        .then([reported('smollm2', figures(3, 500, 60, 300))]);
    });
    it('keeps models apart', () => {
      given(deviceUsageDecider, [reported('smollm2', figures(3))])
        .when(report('gemma3', figures(1)))
        .then([reported('gemma3', figures(1))]);
    });
  });

  it('names one stream per device and hour', () => {
    expect(usageStreamKey('d1', hour)).toBe('d1-2026030110');
  });
});

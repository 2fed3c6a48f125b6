import { describe, expect, it } from 'vitest';
import { endpointState, formatLatency, pageCount, prettyJson, responseSummary } from './webhook-format';

describe('webhook log formatting', () => {
  it('names the endpoint state, with the reason when the api disabled it', () => {
    expect(endpointState({ enabled: true, disabled_reason: null })).toEqual({ label: 'Enabled', detail: null });
    expect(endpointState({ enabled: false, disabled_reason: 'user' })).toEqual({ label: 'Disabled', detail: null });
    expect(endpointState({ enabled: false, disabled_reason: 'failing' })).toEqual({
      label: 'Disabled automatically',
      detail: 'its deliveries kept failing',
    });
    expect(endpointState({ enabled: false, disabled_reason: 'plan' }).detail).toBe('your plan no longer includes webhooks');
  });

  it('shows the response code, else the error, else that nothing was sent yet', () => {
    expect(responseSummary({ response_status: 500, error: 'HTTP 500', status: 'retrying' })).toBe('500');
    expect(responseSummary({ response_status: null, error: 'Timed out after 10 s', status: 'retrying' })).toBe('Timed out after 10 s');
    expect(responseSummary({ response_status: null, error: null, status: 'pending' })).toBe('Not sent yet');
  });

  it('reads latencies in ms under a second and in seconds above', () => {
    expect([formatLatency(null), formatLatency(84.4), formatLatency(1234)]).toEqual(['—', '84 ms', '1.2 s']);
  });

  it('counts pages, one at least', () => {
    expect([pageCount(0, 20), pageCount(20, 20), pageCount(21, 20), pageCount(5, 0)]).toEqual([1, 1, 2, 1]);
  });

  it('indents JSON bodies and leaves anything else as it came', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});

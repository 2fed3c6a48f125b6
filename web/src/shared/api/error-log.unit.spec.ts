import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { createErrorLog, ERROR_LOG_LIMIT } from './error-log';

describe('error log', () => {
  it('keeps only the latest 100 failures', () => {
    const log = createErrorLog();
    for (let i = 0; i < 130; i++) log.record('GET', `/call/${i}`, ApiError.fromResponse(500, undefined));
    const entries = log.entries();
    expect(ERROR_LOG_LIMIT).toBe(100);
    expect(entries).toHaveLength(100);
    expect(entries[0]?.path).toBe('/call/30');
    expect(entries.at(-1)?.path).toBe('/call/129');
  });
});

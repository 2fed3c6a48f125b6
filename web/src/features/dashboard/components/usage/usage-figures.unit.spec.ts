import { describe, expect, it } from 'vitest';
import { formatBusy, formatCount, tokenBars, windowLabel } from './usage-figures';

describe('usage card figures', () => {
  it('scales each day to the busiest one, and a window without tokens to flat bars', () => {
    const day = (date: string, prompt: number, completion: number) => ({
      date,
      requests: 1,
      prompt_tokens: prompt,
      completion_tokens: completion,
      busy_ms: 0,
    });
    expect(tokenBars([day('2026-11-26', 30, 10), day('2026-11-27', 60, 20)])).toEqual([
      { date: '2026-11-26', tokens: 40, share: 0.5 },
      { date: '2026-11-27', tokens: 80, share: 1 },
    ]);
    expect(tokenBars([day('2026-11-27', 0, 0)])).toEqual([{ date: '2026-11-27', tokens: 0, share: 0 }]);
  });

  it('words counts, busy time and the window', () => {
    expect([formatCount(1234), formatCount(12_345), formatCount(4_500_000)]).toEqual(['1,234', '12.3K', '4.5M']);
    expect([formatBusy(4_400), formatBusy(125_000), formatBusy(5_400_000)]).toEqual(['4 s', '2 min', '1.5 h']);
    expect(windowLabel({ window_days: 7, from: '2026-11-21', to: '2026-11-27' })).toBe('Last 7 days (Nov 21 – Nov 27)');
  });
});

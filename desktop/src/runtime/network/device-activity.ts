/**
 * The tokens each device of a network ran through its blocks, as the host's pipeline timed
 * them: its rate now and over the last ten minutes, for the window's picture of which device
 * works how hard. Prompt tokens count as they pass (a long prompt shows as a burst).
 */
import type { MemberActivity } from '@meshwork/contracts';

/** The rate now is over this many milliseconds: a few tokens at a slow model's decode rate. */
export const LIVE_MS = 5_000;
/** The history's step, and its length: ten minutes. */
export const HISTORY_STEP_MS = 10_000;
export const HISTORY_STEPS = 60;
/** While tokens pass, the window hears of the rates this often (not once a token). */
const TELL_MS = 1_000;

export class DeviceActivity {
  /** Per device: tokens per history step (keyed by the step's number since the epoch), and recent runs for the rate now. */
  private readonly steps = new Map<string, Map<number, number>>();
  private readonly recent = new Map<string, { at: number; tokens: number }[]>();
  private last = -Infinity;
  private timer: NodeJS.Timeout | null = null;

  /** `changed` is told at most once a second while tokens pass, and once more when the rates fall to nothing. */
  constructor(
    private readonly changed: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** `deviceId`'s blocks ran `tokens` positions. */
  ran(deviceId: string, tokens: number): void {
    const at = this.now();
    const step = Math.floor(at / HISTORY_STEP_MS);
    const steps = this.steps.get(deviceId) ?? new Map<number, number>();
    steps.set(step, (steps.get(step) ?? 0) + tokens);
    for (const key of steps.keys()) if (key <= step - HISTORY_STEPS) steps.delete(key);
    this.steps.set(deviceId, steps);
    const recent = (this.recent.get(deviceId) ?? []).filter((run) => run.at > at - LIVE_MS);
    recent.push({ at, tokens });
    this.recent.set(deviceId, recent);
    this.last = at;
    this.timer ??= setTimeout(() => this.tell(), TELL_MS).unref();
  }

  /** `deviceId`'s tokens a second now, and in each step of the last ten minutes (oldest first, this one last). */
  of(deviceId: string): MemberActivity {
    const at = this.now();
    const tokens = (this.recent.get(deviceId) ?? []).filter((run) => run.at > at - LIVE_MS).reduce((sum, run) => sum + run.tokens, 0);
    const step = Math.floor(at / HISTORY_STEP_MS);
    const steps = this.steps.get(deviceId);
    const history = Array.from(
      { length: HISTORY_STEPS },
      (_, i) => ((steps?.get(step - HISTORY_STEPS + 1 + i) ?? 0) * 1000) / HISTORY_STEP_MS,
    );
    return { tokens_per_second: (tokens * 1000) / LIVE_MS, history };
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private tell(): void {
    this.timer = null;
    this.changed();
    // Once more after the last tokens have left the rate window, so the window shows it fall to 0.
    if (this.now() - this.last <= LIVE_MS) this.timer = setTimeout(() => this.tell(), TELL_MS).unref();
  }
}

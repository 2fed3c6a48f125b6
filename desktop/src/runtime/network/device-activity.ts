/**
 * The tokens each device of a network ran through its blocks, as the host's pipeline timed
 * them: its rate now and over the last ten minutes, for the window's picture of which device
 * works how hard. Prompt tokens count as they pass (a long prompt shows as a burst). And the
 * memory each device measured serving its share, over the same ten minutes.
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
  /** Per device: the highest resident memory measured in each history step. */
  private readonly memory = new Map<string, Map<number, number>>();
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

  /** `deviceId` measured `rssBytes` of resident memory serving its share (its own report, or the host's own measure). */
  measured(deviceId: string, rssBytes: number): void {
    const step = Math.floor(this.now() / HISTORY_STEP_MS);
    const steps = this.memory.get(deviceId) ?? new Map<number, number>();
    steps.set(step, Math.max(steps.get(step) ?? 0, rssBytes));
    for (const key of steps.keys()) if (key <= step - HISTORY_STEPS) steps.delete(key);
    this.memory.set(deviceId, steps);
  }

  /** Forgets a device that left the network: its history goes with it. */
  forget(deviceId: string): void {
    for (const kept of [this.steps, this.recent, this.memory]) kept.delete(deviceId);
  }

  /** `deviceId`'s tokens a second now, and in each step of the last ten minutes (oldest first, this one last), with its memory then. */
  of(deviceId: string): MemberActivity {
    const at = this.now();
    const tokens = (this.recent.get(deviceId) ?? []).filter((run) => run.at > at - LIVE_MS).reduce((sum, run) => sum + run.tokens, 0);
    const first = Math.floor(at / HISTORY_STEP_MS) - HISTORY_STEPS + 1;
    const steps = this.steps.get(deviceId);
    const memory = this.memory.get(deviceId);
    return {
      tokens_per_second: (tokens * 1000) / LIVE_MS,
      history: Array.from({ length: HISTORY_STEPS }, (_, i) => ((steps?.get(first + i) ?? 0) * 1000) / HISTORY_STEP_MS),
      memory: Array.from({ length: HISTORY_STEPS }, (_, i) => memory?.get(first + i) ?? null),
    };
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

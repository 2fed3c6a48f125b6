import { Injectable } from '@nestjs/common';
import { tooManyRequests } from '../../../platform/domain/errors';

/** Join attempts a device may make in a minute: guessing a 20^8 code at this pace is hopeless. */
export const JOIN_ATTEMPTS_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

/**
 * Join attempts per device, in a fixed one-minute window, in memory: each api instance
 * counts on its own (with n instances a device gets at most n times the attempts, still far
 * too few to guess a code in its 15 minutes).
 */
@Injectable()
export class JoinAttempts {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  /** Counts an attempt by the device at `now`, or refuses it above the limit. */
  take(deviceId: string, now: Date): void {
    const at = now.getTime();
    let window = this.windows.get(deviceId);
    if (!window || window.resetAt <= at) {
      if (this.windows.size > 10_000) this.sweep(at);
      window = { count: 0, resetAt: at + WINDOW_MS };
      this.windows.set(deviceId, window);
    }
    window.count += 1;
    if (window.count > JOIN_ATTEMPTS_PER_MINUTE)
      throw tooManyRequests('Too many join attempts from this device. Wait a minute and try again.', (window.resetAt - at) / 1000);
  }

  private sweep(at: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= at) this.windows.delete(key);
  }
}

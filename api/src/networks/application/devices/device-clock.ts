import { Injectable } from '@nestjs/common';

/**
 * The time the device calls see: the wall clock, which tests move forward to expire codes
 * and space polls without waiting (`app.get(DeviceClock).advance(ms)`).
 */
@Injectable()
export class DeviceClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

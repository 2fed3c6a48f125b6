import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata, UseGuards, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { tooManyRequests } from '../../platform/domain/errors';
import type { GuardAnswers } from '../../platform/http/openapi/route-inputs';

const BUCKET = 'rate-limit-bucket';
const WINDOW_MS = 60_000;

/** Rate-limits a route in a bucket (e.g. 'login'); limits count per client address and bucket. */
export const RateLimited = (bucket: string) => applyDecorators(SetMetadata(BUCKET, bucket), UseGuards(RateLimitGuard));

/**
 * A fixed one-minute window per client address and bucket, in memory. It slows password
 * guessing and mail flooding from one address; with several api instances each keeps its
 * own count (a shared store is the step up when that matters).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  static readonly openApi: GuardAnswers = { errors: [429] };
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const bucket = this.reflector.get<string | undefined>(BUCKET, context.getHandler());
    if (!bucket) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const now = Date.now();
    const key = `${bucket}:${request.ip}`;
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 10_000) this.sweep(now);
      window = { count: 0, resetAt: now + WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count > this.config.AUTH_RATE_LIMIT_PER_MINUTE) throw tooManyRequests(undefined, (window.resetAt - now) / 1000);
    return true;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

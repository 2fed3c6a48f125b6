import type { DeviceRef } from '../device-entitlements.query';
import type { StreamTarget } from './stream-targets';

/** Where a stream's bytes go: the HTTP response, in production. */
export interface StreamSink {
  write(chunk: string): void;
  end(): void;
}

/** One open entitlement stream of a signed-in device on this api instance. */
export class StreamConnection {
  /** The document's content (without its times and seq) the host holds; null until the first one. */
  content: string | null = null;
  /** The plan the host's document names: staff editing a plan reach its subscribers through it. */
  planId: string | null = null;
  closed = false;

  constructor(
    readonly device: DeviceRef,
    /** Last-Event-ID the host sent: the seq of the document it holds, if it says. */
    readonly resumeFrom: number | null,
    private readonly sink: StreamSink,
  ) {}

  write(chunk: string): void {
    if (!this.closed) this.sink.write(chunk);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink.end();
  }
}

/** The open streams of this instance, found by user (indexed: most events name one), plan or device. */
export class StreamConnections {
  private readonly byUser = new Map<string, Set<StreamConnection>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(connection: StreamConnection): void {
    const { userId } = connection.device;
    const mine = this.byUser.get(userId) ?? new Set();
    if (!mine.has(connection)) this.count += 1;
    this.byUser.set(userId, mine.add(connection));
  }

  remove(connection: StreamConnection): void {
    const { userId } = connection.device;
    const mine = this.byUser.get(userId);
    if (!mine?.delete(connection)) return;
    this.count -= 1;
    if (mine.size === 0) this.byUser.delete(userId);
  }

  *[Symbol.iterator](): Iterator<StreamConnection> {
    for (const mine of this.byUser.values()) yield* mine;
  }

  /**
   * The open streams an event's target names. Plans and devices are found by a scan: it
   * costs microseconds for thousands of streams, those events are rare, and it cannot go out
   * of step as a stream's plan changes.
   */
  resolve(target: StreamTarget): StreamConnection[] {
    switch (target.kind) {
      case 'users':
        return target.userIds.flatMap((id) => [...(this.byUser.get(id) ?? [])]);
      case 'signed-out':
        return [...(this.byUser.get(target.userId) ?? [])];
      case 'plans':
        // A stream still waiting for its first document has no plan: it is being built anyway.
        return [...this].filter((c) => c.planId !== null && target.planIds.includes(c.planId));
      case 'everyone':
        return [...this];
      case 'revoked':
        return [...this].filter((c) => c.device.deviceId === target.deviceId);
    }
  }
}

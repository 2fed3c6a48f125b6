import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ENTITLEMENT_STREAM_HEARTBEAT_SECONDS, type EntitlementDocument, type RecordedEvent } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../../platform/database/database';
import { EVENT_STORE, type EventStore } from '../../../platform/event-store/event-store.port';
import { logger } from '../../../platform/logging/logger';
import { waitForProjection } from '../../../platform/projections/projection-waiter';
import { EntitlementSigner } from '../../infrastructure/entitlement-signer';
import { DeviceClock } from '../devices/device-clock';
import { DeviceDirectory } from '../devices/device-directory';
import { DeviceEntitlements, type DeviceRef, ENTITLEMENT_SOURCES } from '../device-entitlements.query';
import { documentContent } from '../../domain/entitlement-document';
import { sse } from './sse';
import { StreamConnection, StreamConnections, type StreamSink } from './stream-connections';
import { targetOf } from './stream-targets';

/** Events read per round, and documents built per query batch. */
const PAGE = 1_000;
const BATCH = 500;
/** How long a round waits for the read models before reading on (revocations must not wait behind them). */
const READ_MODEL_WAIT_MS = 1_000;

/**
 * The live entitlement streams of this api instance, and the one tail of the event log that
 * feeds them. Each instance follows the log by itself (not exclusively: every instance holds
 * its own streams), woken by the event store's NOTIFY, so a change committed on any instance
 * reaches every device without Kafka.
 *
 * A round reads the events after the tail's position, maps each to the open streams it may
 * touch (stream-targets.ts), tells revoked devices at once, then waits until the read models
 * have applied those events and builds the touched streams' documents in batches. A document
 * is sent only when its content differs from the one the host holds. New streams join the
 * next round, so their first document also reflects every event the tail has passed.
 * With no stream open the tail reads nothing; it starts again from the head.
 */
@Injectable()
export class EntitlementStreamTail implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly connections = new StreamConnections();
  /** Streams whose document must be (re)built once the read models reach `dirtyAt`. */
  private readonly dirty = new Set<StreamConnection>();
  private dirtyAt = 0;
  /** The log position this tail has mapped to streams; null while idle (nobody connected). */
  private position: number | null = null;
  private poke: () => void = () => undefined;
  private stopped = false;
  private running: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly documents: DeviceEntitlements,
    private readonly signer: EntitlementSigner,
    private readonly clock: DeviceClock,
    private readonly devices: DeviceDirectory,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.run();
    this.heartbeat = setInterval(() => {
      for (const connection of this.connections) connection.write(sse.heartbeat);
    }, ENTITLEMENT_STREAM_HEARTBEAT_SECONDS * 1000);
    this.heartbeat.unref();
  }

  /** Ends every stream (the HTTP server waits for open responses before it closes) and the tail. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const connection of [...this.connections]) this.close(connection);
    this.poke();
    await this.running;
  }

  /** How many streams this instance holds (health and the benchmark read it). */
  get openStreams(): number {
    return this.connections.size;
  }

  /** Opens a device's stream: `retry`, then its document on the next round. Returns what to call when the client goes. */
  open(device: DeviceRef, resumeFrom: number | null, sink: StreamSink): () => void {
    const connection = new StreamConnection(device, resumeFrom, sink);
    connection.write(sse.retry);
    this.connections.add(connection);
    this.markDirty([connection], this.position ?? 0);
    void this.revokeIfGone(connection);
    return () => this.close(connection);
  }

  /**
   * A device revoked while its stream was opening: the token passed the guard, but the tail
   * may have passed DeviceRevoked before the stream was registered. The device's own stream,
   * read after registering, has it if the tail did not.
   */
  private async revokeIfGone(connection: StreamConnection): Promise<void> {
    const { userId, deviceId } = connection.device;
    // Unreadable now: the guard has just let the token in, and the tail still watches for DeviceRevoked.
    const active = await this.devices.ownedActiveDevice(userId, deviceId).catch(() => true);
    if (active || connection.closed) return;
    connection.write(sse.revoked({ reason: 'device_revoked', revoked_at: this.clock.now().toISOString() }));
    this.close(connection);
  }

  private close(connection: StreamConnection): void {
    this.connections.remove(connection);
    this.dirty.delete(connection);
    connection.end();
  }

  private markDirty(connections: StreamConnection[], position: number): void {
    if (connections.length === 0) return;
    for (const connection of connections) this.dirty.add(connection);
    this.dirtyAt = Math.max(this.dirtyAt, position);
    this.poke();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.round();
      } catch (error) {
        logger.warn({ err: error }, 'entitlement stream: round failed; retrying');
        await this.pause(1_000);
      }
    }
  }

  private async round(): Promise<void> {
    if (this.connections.size === 0) {
      // Nobody to tell: follow nothing until a stream opens.
      this.position = null;
      return this.pause(60_000);
    }
    if (this.position === null) {
      this.position = await this.store.headPosition();
      this.dirtyAt = Math.max(this.dirtyAt, this.position);
    }
    const events = await this.store.readAll(this.position, PAGE);
    this.map(events);
    if (this.dirty.size > 0 && (await this.readModelsAt(this.dirtyAt))) await this.push();
    else if (events.length === 0 && this.dirty.size === 0) await this.nextAppend();
  }

  /** Tells revoked devices and marks the touched streams; synchronous, so a stream opened meanwhile is at `position`. */
  private map(events: RecordedEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) {
      const target = targetOf(event);
      if (!target) continue;
      const touched = this.connections.resolve(target);
      if (target.kind === 'revoked' || target.kind === 'signed-out') {
        for (const connection of touched) {
          if (target.kind === 'revoked') connection.write(sse.revoked({ reason: 'device_revoked', revoked_at: target.revokedAt }));
          this.close(connection);
        }
      } else this.markDirty(touched, event.position);
    }
    this.position = events[events.length - 1]!.position;
  }

  private async readModelsAt(position: number): Promise<boolean> {
    const pool = this.database.pool;
    const ready = await Promise.all(ENTITLEMENT_SOURCES.map((name) => waitForProjection(pool, name, position, READ_MODEL_WAIT_MS)));
    return !ready.includes(false);
  }

  /** Builds the dirty streams' documents in batches and sends those that changed. */
  private async push(): Promise<void> {
    const streams = [...this.dirty];
    this.dirty.clear();
    for (let i = 0; i < streams.length; i += BATCH) {
      const batch = streams.slice(i, i + BATCH);
      try {
        const documents = await this.documents.documentsFor(
          batch.map((c) => c.device),
          this.clock.now(),
        );
        batch.forEach((connection, n) => this.send(connection, documents[n]!));
      } catch (error) {
        for (const connection of streams.slice(i)) if (!connection.closed) this.dirty.add(connection);
        throw error;
      }
    }
  }

  private send(connection: StreamConnection, document: EntitlementDocument): void {
    if (connection.closed) return;
    const content = documentContent(document);
    const first = connection.content === null;
    const unchanged = first ? connection.resumeFrom !== null && connection.resumeFrom >= document.seq : content === connection.content;
    connection.content = content;
    connection.planId = document.plan.slug;
    if (!unchanged) connection.write(sse.entitlements(document.seq, { token: this.signer.sign(document) }));
  }

  /** Until something is appended (on any instance), a stream opens or closes, or `ms` pass. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.poke = done;
      if (this.stopped) done();
    });
  }

  private nextAppend(): Promise<void> {
    return Promise.race([this.store.waitForAppend(5_000), this.pause(5_000)]);
  }
}

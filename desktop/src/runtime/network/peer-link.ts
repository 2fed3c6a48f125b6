/**
 * One TLS connection between two devices of a network, as frames: a JSON header and an optional
 * binary payload, each frame `[u32 header bytes][u32 payload bytes][header][payload]`. Headers
 * are checked against the contract's schema before anyone sees them; a frame over the limits or
 * a header that does not parse closes the link. Requests carry an id and wait for the `reply`
 * with that id, bounded in time; the link pings its peer and counts it lost after a silence, so
 * a device that vanishes (unplugged, not just killed) fails what waits on it instead of hanging.
 */
import { EventEmitter } from 'node:events';
import type { TLSSocket } from 'node:tls';
import type { z } from 'zod';
import { type HostLinkFailure, LAN_MAX_HEADER_BYTES, LAN_MAX_PAYLOAD_BYTES } from '@meshwork/contracts';
import { linkFailureWords } from '../english';

export const PING_INTERVAL_MS = 1000;
/** The largest frame a peer may send before it has proved who it is (a join carries a signed document of up to 64 KB). */
export const UNTRUSTED_FRAME_BYTES = 128 * 1024;
/** Silence after which the peer is lost (a member runs a block's prompt chunk well within it). */
export const SILENCE_LIMIT_MS = 6000;

/** The peer is gone, or broke the protocol: what waited on it fails with this (the window words `failure`). */
export class PeerLost extends Error {
  constructor(readonly failure: HostLinkFailure) {
    super(linkFailureWords(failure));
  }
}

/** Why a link failed, from whatever it failed with: a PeerLost says; anything else (the dial's system error) is its words. */
export function failureOf(error: unknown): HostLinkFailure {
  return error instanceof PeerLost ? error.failure : { code: 'unreachable', detail: (error as Error).message };
}

export interface Frame<Header> {
  header: Header;
  payload: Buffer;
}

/** `heartbeat`: the link checked on its peer and kept it (its ping, if it pings, is sent). */
type LinkEvents = { close: [PeerLost]; heartbeat: [] };

export class PeerLink<In extends { type: string }, Out extends { type: string }> extends EventEmitter<LinkEvents> {
  private chunks: Buffer[] = [];
  private bytes = 0;
  /** Bytes the next frame needs before it can be read (its lengths first). */
  private needed = 8;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (frame: Frame<In>) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private lastHeard: number;
  private readonly heartbeat: NodeJS.Timeout;
  private closed: PeerLost | null = null;
  /** Frames that came before anyone took them (they are never dropped). */
  private backlog: Frame<In>[] = [];
  private waiting: { resolve: (frame: Frame<In>) => void; reject: (error: Error) => void } | null = null;
  private handler: ((frame: Frame<In>) => void) | null = null;
  /** Whether the peer has proved who it is; until then its frames stay small. */
  private trusted: boolean;
  private readonly silenceLimitMs: number;
  /** The clock silence is counted by (Date.now; a test turns its own). */
  private readonly now: () => number;

  constructor(
    readonly socket: TLSSocket,
    private readonly schema: z.ZodType<In>,
    /** What this side sends every second (the host pings), and answers to a ping (a member pongs). */
    ping: Out | null,
    private readonly pong: Out | null,
    options: { trusted?: boolean; silenceLimitMs?: number; now?: () => number } = {},
  ) {
    super();
    this.trusted = options.trusted ?? true;
    this.silenceLimitMs = options.silenceLimitMs ?? SILENCE_LIMIT_MS;
    this.now = options.now ?? Date.now;
    this.lastHeard = this.now();
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', (error) => this.close(new PeerLost({ code: 'connection_failed', detail: error.message })));
    socket.on('close', () => this.close(new PeerLost({ code: 'disconnected' })));
    let lastTick = this.lastHeard;
    this.heartbeat = setInterval(() => {
      const now = this.now();
      // This process stalled (blocks run in the engine thread, but a long collection still
      // stalls it): what the peer sent meanwhile is still unread, so its silence is not the peer's.
      if (now - lastTick > 2 * PING_INTERVAL_MS) this.lastHeard = now;
      lastTick = now;
      if (now > this.patientUntil) return this.close(new PeerLost({ code: 'stopped_answering' }));
      if (ping) this.send(ping);
      this.emit('heartbeat');
    }, PING_INTERVAL_MS).unref();
  }

  /** Until when the peer's silence is not its loss: the silence limit after it was last heard. */
  get patientUntil(): number {
    return this.lastHeard + this.silenceLimitMs;
  }

  get isClosed(): boolean {
    return this.closed !== null;
  }

  send(header: Out, payload?: ArrayBufferView): void {
    if (this.closed) return;
    const json = Buffer.from(JSON.stringify(header));
    const lengths = Buffer.alloc(8);
    lengths.writeUInt32BE(json.length, 0);
    lengths.writeUInt32BE(payload?.byteLength ?? 0, 4);
    // One write, so a frame leaves as one TLS record rather than three.
    const parts: Buffer[] = [lengths, json];
    if (payload && payload.byteLength > 0) parts.push(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
    this.socket.write(Buffer.concat(parts));
  }

  /** Sends a request (the header gets an `id`) and waits for the reply with that id. */
  request(header: Out & { id: number }, payload: ArrayBufferView | undefined, timeoutMs: number): Promise<Frame<In>> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new PeerLost({ code: 'no_answer_within', seconds: Math.round(timeoutMs / 1000) }));
      }, timeoutMs).unref();
      this.pending.set(id, { resolve, reject, timer });
      this.send({ ...header, id }, payload);
    });
  }

  /** The next frame, within `timeoutMs` (the link closes without one). */
  next(timeoutMs: number): Promise<Frame<In>> {
    const kept = this.backlog.shift();
    if (kept) return Promise.resolve(kept);
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.close(new PeerLost({ code: 'no_answer_in_time' })), timeoutMs).unref();
      this.waiting = {
        resolve: (frame) => (clearTimeout(timer), resolve(frame)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
    });
  }

  /** The peer has proved who it is: its frames may be as large as the protocol allows. */
  trust(): void {
    this.trusted = true;
  }

  /** Hands `handler` every frame from now on, those that came before first. */
  serve(handler: (frame: Frame<In>) => void): void {
    this.handler = handler;
    for (const frame of this.backlog.splice(0)) handler(frame);
  }

  close(reason = new PeerLost({ code: 'closed' })): void {
    if (this.closed) return;
    this.closed = reason;
    this.waiting?.reject(reason);
    this.waiting = null;
    clearInterval(this.heartbeat);
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(reason);
    }
    this.pending.clear();
    this.socket.destroy();
    this.emit('close', reason);
  }

  private received(chunk: Buffer): void {
    this.lastHeard = this.now();
    // Chunks are joined once a whole frame is there, not on every chunk (a frame of logits or a
    // prompt's hidden states comes in dozens of them).
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes >= this.needed && !this.closed) {
      const buffered = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.chunks = [buffered];
      const headerBytes = buffered.readUInt32BE(0);
      const payloadBytes = buffered.readUInt32BE(4);
      if (
        headerBytes > LAN_MAX_HEADER_BYTES ||
        payloadBytes > LAN_MAX_PAYLOAD_BYTES ||
        (!this.trusted && 8 + headerBytes + payloadBytes > UNTRUSTED_FRAME_BYTES)
      )
        return this.close(new PeerLost({ code: 'frame_too_large' }));
      const total = 8 + headerBytes + payloadBytes;
      if (buffered.length < total) {
        this.needed = total;
        return;
      }
      const json = buffered.subarray(8, 8 + headerBytes).toString('utf8');
      // Copied out: the payload outlives the receive buffer, and typed arrays need aligned memory.
      const payload = Buffer.from(buffered.subarray(8 + headerBytes, total));
      const rest = buffered.subarray(total);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.bytes = rest.length;
      this.needed = 8;
      let header: In;
      try {
        const parsed = this.schema.safeParse(JSON.parse(json));
        if (!parsed.success) throw new Error(parsed.error.issues[0]?.message);
        header = parsed.data;
      } catch (error) {
        return this.close(new PeerLost({ code: 'broke_protocol', detail: (error as Error).message }));
      }
      this.dispatch({ header, payload });
    }
  }

  private dispatch(frame: Frame<In>): void {
    const header = frame.header as In & { id?: number };
    if (header.type === 'ping') return this.pong ? this.send(this.pong) : undefined;
    if (header.type === 'pong') return;
    if (header.type === 'reply' && header.id !== undefined) {
      const waiting = this.pending.get(header.id);
      if (!waiting) return;
      this.pending.delete(header.id);
      clearTimeout(waiting.timer);
      return waiting.resolve(frame);
    }
    const waiter = this.waiting;
    this.waiting = null;
    if (waiter) waiter.resolve(frame);
    else if (this.handler) this.handler(frame);
    else this.backlog.push(frame);
  }
}

/** A typed array's bytes as a Float32Array / BigInt64Array over its own aligned copy. */
export const asFloat32 = (payload: Buffer): Float32Array =>
  new Float32Array(payload.buffer.slice(payload.byteOffset, payload.byteOffset + payload.byteLength));
export const asInt64 = (payload: Buffer): BigInt64Array =>
  new BigInt64Array(payload.buffer.slice(payload.byteOffset, payload.byteOffset + payload.byteLength));

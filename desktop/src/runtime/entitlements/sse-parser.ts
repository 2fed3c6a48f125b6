/** One server-sent event (the fields the entitlement stream uses). */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

/** Longer frames are refused: no entitlement event comes near it, and a hostile server cannot grow the buffer without end. */
const MAX_FRAME_CHARACTERS = 256 * 1024;

/**
 * The text/event-stream format (WHATWG HTML §9.2.6), fed chunk by chunk: frames end at a blank
 * line, `data` lines join with newlines, comments (`:` lines) only count as activity. Any of
 * CRLF, LF or CR ends a line.
 */
export class SseParser {
  private buffer = '';

  /** The complete events in `chunk` (with what came before); throws on a frame past the limit. */
  feed(chunk: string): ServerSentEvent[] {
    this.buffer += chunk;
    const events: ServerSentEvent[] = [];
    for (let end = frameEnd(this.buffer); end; end = frameEnd(this.buffer)) {
      const event = parseFrame(this.buffer.slice(0, end.at));
      this.buffer = this.buffer.slice(end.at + end.length);
      if (event) events.push(event);
    }
    if (this.buffer.length > MAX_FRAME_CHARACTERS) throw new Error('An event on the entitlement stream is too large');
    return events;
  }
}

function frameEnd(buffer: string): { at: number; length: number } | null {
  const match = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
  return match ? { at: match.index, length: match[0].length } : null;
}

function parseFrame(frame: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  let id: string | undefined;
  let retry: number | undefined;
  for (const line of frame.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }
  if (data.length === 0 && retry === undefined) return null;
  return { event, data: data.join('\n'), ...(id === undefined ? {} : { id }), ...(retry === undefined ? {} : { retry }) };
}

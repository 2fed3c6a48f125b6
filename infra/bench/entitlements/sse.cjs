// A server-sent events client small enough for 2,000 streams in one process: one raw
// http.request per stream (its own socket, as 2,000 machines would have), parsed by hand.
// CommonJS, so the ESM benchmark and a Jest test can both load it.
const http = require('node:http');

/**
 * The text/event-stream format (WHATWG HTML §9.2.6), fed chunk by chunk: `event:`, `data:`
 * (lines joined with \n), `id:` and `retry:` fields, `:` comments, and a blank line that
 * dispatches the event. Lines end in \n, \r\n or \r; a chunk may end anywhere, even between
 * the \r and the \n of one line ending.
 */
class SseParser {
  /** `onEvent({event, data, id})` for each dispatched event; `onComment(text)` for each comment. */
  constructor(onEvent, onComment = () => {}) {
    this.onEvent = onEvent;
    this.onComment = onComment;
    this.buffer = '';
    this.lastEventId = '';
    this.reset();
  }

  reset() {
    this.event = '';
    this.data = [];
    this.hasData = false;
  }

  push(chunk) {
    this.buffer += chunk;
    let start = 0;
    for (;;) {
      const end = this.buffer.slice(start).search(/\r\n|\r|\n/);
      if (end === -1) break;
      const at = start + end;
      // A \r last in the buffer may be the first half of \r\n: wait for the next chunk.
      if (this.buffer[at] === '\r' && at === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, at));
      start = at + (this.buffer.startsWith('\r\n', at) ? 2 : 1);
    }
    this.buffer = this.buffer.slice(start);
  }

  line(line) {
    if (line === '') {
      if (this.hasData) this.onEvent({ event: this.event || 'message', data: this.data.join('\n'), id: this.lastEventId });
      this.reset();
      return;
    }
    if (line.startsWith(':')) return this.onComment(line.slice(1).trimStart());
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    } else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    // `retry:` and unknown fields: nothing for a benchmark client to do.
  }
}

/**
 * Opens an event stream: GET `url` with the bearer `token`. Resolves once the answer's
 * headers are in (rejects on a non-200 or a socket error before that); after that every
 * event reaches `onEvent(event, receivedAt)`, `receivedAt` in epoch milliseconds with
 * sub-millisecond precision, taken when the chunk came off the socket; comments (heartbeats)
 * reach `onComment`, and `onEnd` is called when the stream ends. `close()` ends it.
 */
function openEventStream(url, token, onEvent, onEnd = () => {}, onComment = () => {}) {
  return new Promise((resolve, reject) => {
    let receivedAt = 0;
    const parser = new SseParser((event) => onEvent(event, receivedAt), onComment);
    const request = http.get(url, { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    request.once('error', reject);
    request.once('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`stream: ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        receivedAt = performance.timeOrigin + performance.now();
        parser.push(chunk);
      });
      response.once('close', onEnd);
      request.removeListener('error', reject);
      request.on('error', () => {}); // a drop after the headers ends the stream: onEnd says so
      resolve({ close: () => request.destroy() });
    });
  });
}

module.exports = { SseParser, openEventStream };

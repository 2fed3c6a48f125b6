import { SseParser } from './sse-parser';

describe('the entitlement stream parser', () => {
  it('splits frames across chunks, joins data lines and keeps the id and retry', () => {
    const parser = new SseParser();
    expect(parser.feed('retry: 3000\n\nevent: entitle')).toEqual([{ event: 'message', data: '', retry: 3000 }]);
    expect(parser.feed('ments\nid: 42\ndata: {"token":\ndata: "x"}\n')).toEqual([]);
    expect(parser.feed('\n: heartbeat\n\n')).toEqual([{ event: 'entitlements', data: '{"token":\n"x"}', id: '42' }]);
  });

  it('takes CRLF and CR line ends, and skips comments and frames without data', () => {
    const parser = new SseParser();
    expect(parser.feed(': heartbeat\r\n\r\nevent: revoked\rdata: {}\r\r')).toEqual([{ event: 'revoked', data: '{}' }]);
  });

  it('refuses a frame that grows without end', () => {
    const parser = new SseParser();
    expect(() => parser.feed(`data: ${'x'.repeat(300 * 1024)}`)).toThrow(/too large/);
  });
});

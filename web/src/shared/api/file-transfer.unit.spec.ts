import { describe, expect, it } from 'vitest';
import { attachmentFileName, contentLength, readWithProgress, transferPercent, type TransferProgress } from './file-transfer';

function streamedResponse(chunks: number[][], headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
      controller.close();
    },
  });
  return new Response(body, { headers });
}

describe('download progress from bytes', () => {
  it('is the whole percent received, held at 99 until the body ends', () => {
    expect(transferPercent(0, 200)).toBe(0);
    expect(transferPercent(101, 200)).toBe(50);
    expect(transferPercent(199, 200)).toBe(99);
    expect(transferPercent(200, 200)).toBe(99);
    expect(transferPercent(300, 200)).toBe(99);
  });

  it('is unknown without a size', () => {
    expect(transferPercent(10, null)).toBeNull();
    expect(transferPercent(10, 0)).toBeNull();
  });

  it('reads Content-Length only when it is a size', () => {
    expect(contentLength(new Headers({ 'Content-Length': '1234' }))).toBe(1234);
    expect(contentLength(new Headers())).toBeNull();
    expect(contentLength(new Headers({ 'Content-Length': 'lots' }))).toBeNull();
  });

  it('reports every chunk of a streamed body and returns all its bytes', async () => {
    const seen: TransferProgress[] = [];
    const response = streamedResponse(
      [
        [1, 2],
        [3, 4, 5],
        [6, 7, 8, 9, 10],
      ],
      { 'Content-Length': '10', 'Content-Type': 'application/x-msdownload' },
    );
    const file = await readWithProgress(response, (progress) => seen.push(progress));
    expect(seen.map((p) => [p.received, p.percent])).toEqual([
      [0, 0],
      [2, 20],
      [5, 50],
      [10, 99],
    ]);
    expect(seen.every((p) => p.total === 10)).toBe(true);
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(file.type).toBe('application/x-msdownload');
  });

  it('refuses a body shorter than its Content-Length', async () => {
    const response = streamedResponse([[1, 2, 3]], { 'Content-Length': '10' });
    await expect(readWithProgress(response, () => undefined)).rejects.toThrow('not received completely');
  });
});

describe('the saved file name', () => {
  it('comes from Content-Disposition, quoted or not', () => {
    expect(attachmentFileName('attachment; filename="Meshwork-Desktop-v2.1.0.exe"')).toBe('Meshwork-Desktop-v2.1.0.exe');
    expect(attachmentFileName('attachment; filename=setup.exe')).toBe('setup.exe');
  });

  it('prefers the UTF-8 form and drops any folder', () => {
    expect(attachmentFileName(`attachment; filename="a.exe"; filename*=UTF-8''Mesh%C3%A9work.exe`)).toBe('Meshéwork.exe');
    expect(attachmentFileName('attachment; filename="../../evil/run.exe"')).toBe('run.exe');
  });

  it('is absent when the header names none', () => {
    expect(attachmentFileName(null)).toBeNull();
    expect(attachmentFileName('attachment')).toBeNull();
    expect(attachmentFileName('attachment; filename=""')).toBeNull();
  });
});

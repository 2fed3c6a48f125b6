import { describe, expect, it } from 'vitest';
import { formatDownloadSize, formatFileSize } from './file-size';

describe('model sizes (spec section 9)', () => {
  it('step by 1024 from Bytes to TB, with at most 2 decimals', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(512)).toBe('512 Bytes');
    expect(formatFileSize(1023)).toBe('1023 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatFileSize(16_060_000_000)).toBe('14.96 GB');
    expect(formatFileSize(1024 ** 4 * 3)).toBe('3 TB');
  });

  it('stop at TB however large the file', () => {
    expect(formatFileSize(1024 ** 5)).toBe('1024 TB');
  });
});

describe('download sizes (spec section 9)', () => {
  const MB = 1024 * 1024;

  it('show MB below 1000 MB and GB from 1000 MB', () => {
    expect(formatDownloadSize(150 * MB)).toBe('150.0 MB');
    expect(formatDownloadSize(999 * MB)).toBe('999.0 MB');
    expect(formatDownloadSize(1000 * MB)).toBe('1.0 GB');
    expect(formatDownloadSize(2560 * MB)).toBe('2.5 GB');
  });

  it('do not round a small file down to nothing', () => {
    expect(formatDownloadSize(0)).toBe('0 MB');
    expect(formatDownloadSize(2048)).toBe('< 0.1 MB');
  });
});

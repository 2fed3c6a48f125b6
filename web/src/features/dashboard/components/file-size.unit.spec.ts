import { describe, expect, it } from 'vitest';
import { formatFileSize, formatMegabytes } from './file-size';

describe('model sizes (spec section 9)', () => {
  it('step by 1024 from Bytes to TB, with at most 2 decimals', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(512)).toBe('512 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(16_060_000_000)).toBe('14.96 GB');
    expect(formatFileSize(1024 ** 4 * 3)).toBe('3 TB');
  });

  it('stop at TB however large the file', () => {
    expect(formatFileSize(1024 ** 5)).toBe('1024 TB');
  });
});

describe('download sizes', () => {
  it('switch from MB to GB at 1000 MB', () => {
    expect(formatMegabytes(999)).toBe('999 MB');
    expect(formatMegabytes(1000)).toBe('1.0 GB');
    expect(formatMegabytes(2450)).toBe('2.5 GB');
  });
});

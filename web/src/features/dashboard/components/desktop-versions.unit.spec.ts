import { describe, expect, it } from 'vitest';
import { compareVersions, downloadStatusKind, installerFileName, isUpdateAvailable } from './desktop-versions';

describe('desktop app versions', () => {
  it('compare numerically, part by part', () => {
    expect(compareVersions('2.0.10', '2.0.9')).toBeGreaterThan(0);
    expect(compareVersions('1.9', '2.0.0')).toBeLessThan(0);
    expect(compareVersions('v2.0', '2.0.0')).toBe(0);
  });

  it('offer an update only when the release is newer than the newest downloaded version', () => {
    expect(isUpdateAvailable('2.0.3', [])).toBe(false);
    expect(isUpdateAvailable('2.0.3', [{ version: '2.0.3' }, { version: '1.4.0' }])).toBe(false);
    expect(isUpdateAvailable('2.0.3', [{ version: '1.4.0' }, { version: '2.0.2' }])).toBe(true);
  });

  it('name the installer {product}-Desktop-v{version}.exe', () => {
    expect(installerFileName('2.0.3')).toBe('Meshwork-Desktop-v2.0.3.exe');
  });

  it('show any unknown download status as pending (spec section 4)', () => {
    expect(downloadStatusKind('completed')).toBe('completed');
    expect(downloadStatusKind('failed')).toBe('failed');
    expect(downloadStatusKind('queued')).toBe('pending');
  });
});

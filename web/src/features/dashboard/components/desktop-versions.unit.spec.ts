import type { DownloadRecord } from '@meshwork/contracts';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  downloadLabel,
  downloadStatusKind,
  installerFileName,
  isUpdateAvailable,
  newestDesktopDownload,
} from './desktop-versions';

type Seen = Pick<DownloadRecord, 'kind' | 'version' | 'status'>;
const desktop = (version: string, status: DownloadRecord['status'] = 'completed'): Seen => ({ kind: 'desktop', version, status });
const model = (version: string): Seen => ({ kind: 'model', version, status: 'completed' });

describe('desktop app versions', () => {
  it('compare numerically, part by part', () => {
    expect(compareVersions('2.0.10', '2.0.9')).toBeGreaterThan(0);
    expect(compareVersions('1.9', '2.0.0')).toBeLessThan(0);
    expect(compareVersions('v2.0', '2.0.0')).toBe(0);
    expect(compareVersions('10.0.0', '9.9.9')).toBeGreaterThan(0);
  });

  it('find the newest desktop version downloaded, ignoring models and failed downloads', () => {
    expect(newestDesktopDownload([])).toBeNull();
    expect(newestDesktopDownload([model('big_model@9.0.0')])).toBeNull();
    expect(newestDesktopDownload([desktop('2.0.9'), desktop('2.0.10'), desktop('1.4.0')])).toBe('2.0.10');
    expect(newestDesktopDownload([desktop('3.0.0', 'failed'), desktop('2.0.0')])).toBe('2.0.0');
  });

  it('offer an update only when the release is newer than the newest desktop version downloaded', () => {
    expect(isUpdateAvailable('2.0.3', [])).toBe(false);
    expect(isUpdateAvailable('2.0.3', [model('tiny@1.0.0')])).toBe(false);
    expect(isUpdateAvailable('2.0.3', [desktop('2.0.3'), desktop('1.4.0')])).toBe(false);
    expect(isUpdateAvailable('2.0.3', [desktop('1.4.0'), desktop('2.0.2')])).toBe(true);
    expect(isUpdateAvailable('2.1.0', [model('tiny@3.0.0'), desktop('2.0.10')])).toBe(true);
    expect(isUpdateAvailable('2.0.3', [desktop('2.0.3', 'failed'), desktop('2.0.2')])).toBe(true);
  });

  it('name the installer {product}-Desktop-v{version}.exe', () => {
    expect(installerFileName('2.0.3')).toBe('Meshwork-Desktop-v2.0.3.exe');
  });

  it('show any unknown download status as pending (spec section 4)', () => {
    expect(downloadStatusKind('downloading')).toBe('downloading');
    expect(downloadStatusKind('completed')).toBe('completed');
    expect(downloadStatusKind('failed')).toBe('failed');
    expect(downloadStatusKind('queued')).toBe('pending');
  });

  it('label a recent download as the desktop app or the model with its version', () => {
    expect(downloadLabel({ kind: 'desktop', version: '2.1.0' })).toBe('Meshwork Desktop v2.1.0');
    expect(downloadLabel({ kind: 'model', version: 'tiny_pro_model@1.0.0' })).toBe('tiny_pro_model v1.0.0');
    expect(downloadLabel({ kind: 'model', version: 'odd' })).toBe('odd');
  });
});

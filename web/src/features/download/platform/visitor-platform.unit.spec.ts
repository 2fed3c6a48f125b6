import type { DesktopDownload } from '@meshwork/contracts';
import { describe, expect, it } from 'vitest';
import { arrangeDownloads, detectPlatform, mainButtonLabel } from './visitor-platform';

const WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';

const file = (platform: 'windows' | 'linux', format: DesktopDownload['format'], version = '0.1.0'): DesktopDownload => ({
  platform,
  format,
  label: format,
  version,
  file_name: `Meshwork-Desktop-v${version}.${format}`,
  size: 1,
  download_url: `/api/v1/downloads/desktop-app/Meshwork-Desktop-v${version}.${format}`,
});

describe('the visitor’s platform', () => {
  it('reads the user agent when the browser has no client hints (Firefox, Safari)', () => {
    expect(detectPlatform({ userAgent: WINDOWS_UA })).toBe('windows');
    expect(detectPlatform({ userAgent: LINUX_UA })).toBe('linux');
    expect(detectPlatform({ userAgent: FIREFOX_LINUX })).toBe('linux');
    expect(detectPlatform({ userAgent: MAC_UA })).toBe('mac');
    // Android says Linux in its user agent, but the app does not run there.
    expect(detectPlatform({ userAgent: ANDROID_UA })).toBe('other');
    expect(detectPlatform({ userAgent: '' })).toBe('other');
  });

  it('trusts the client hint’s platform first', () => {
    expect(detectPlatform({ userAgent: LINUX_UA, userAgentData: { platform: 'Windows' } })).toBe('windows');
    expect(detectPlatform({ userAgent: WINDOWS_UA, userAgentData: { platform: 'macOS' } })).toBe('mac');
    expect(detectPlatform({ userAgent: LINUX_UA, userAgentData: { platform: 'Chrome OS' } })).toBe('other');
    // An empty hint says nothing: the user agent decides.
    expect(detectPlatform({ userAgent: WINDOWS_UA, userAgentData: { platform: '' } })).toBe('windows');
  });
});

describe('the downloads as offered', () => {
  const all = [file('windows', 'exe'), file('windows', 'zip'), file('linux', 'deb'), file('linux', 'tar.gz')];

  it('puts the visitor’s installer or package first and lists the rest', () => {
    const linux = arrangeDownloads(all, 'linux');
    expect(linux.main?.format).toBe('deb');
    expect(linux.others.map((d) => d.format)).toEqual(['exe', 'zip', 'tar.gz']);
    expect(mainButtonLabel(linux.main!)).toBe('Download for Linux (.deb)');
    expect(mainButtonLabel(arrangeDownloads(all, 'windows').main!)).toBe('Download for Windows (.exe)');
  });

  it('prefers a newer version over the preferred format, and offers no main file to a Mac', () => {
    const newerArchive = arrangeDownloads([file('linux', 'deb', '0.1.0'), file('linux', 'tar.gz', '0.2.0')], 'linux');
    expect([newerArchive.main?.format, newerArchive.main?.version]).toEqual(['tar.gz', '0.2.0']);
    const mac = arrangeDownloads(all, 'mac');
    expect(mac.main).toBeNull();
    expect(mac.others).toHaveLength(4);
  });
});

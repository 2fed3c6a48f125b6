import { given } from '../../platform/testing/given-when-then';
import { fileKind, platformOf, type ReleaseEvent, releaseDecider } from './release.decider';
import { downloadDecider } from './download.decider';

const at = new Date('2026-03-01T10:00:00Z');
const file = {
  version: '2.1.0',
  releaseNotes: 'Faster',
  objectKey: 'releases/2.1.0/a1/setup.exe',
  fileName: 'setup.exe',
  size: 5,
  sha256: 'b'.repeat(64),
};
const upload = { type: 'UploadRelease' as const, at, platform: 'windows' as const, publish: false, ...file };
const uploaded: ReleaseEvent = { type: 'ReleaseUploaded', data: { ...file, platform: 'windows' } };
const deb = { ...file, objectKey: 'releases/2.1.0/b2/meshwork.deb', fileName: 'meshwork.deb', releaseNotes: '' };
const debUploaded: ReleaseEvent = { type: 'ReleaseUploaded', data: { ...deb, platform: 'linux' } };
const stable: ReleaseEvent = { type: 'ReleaseMarkedStable', data: { version: '2.1.0' } };
const active: ReleaseEvent = { type: 'ReleaseActivated', data: { version: '2.1.0' } };

describe('release decider', () => {
  it('uploads a file naming its platform, Pre-release and Inactive unless published', () => {
    given(releaseDecider).when(upload).then([uploaded]);
    expect(given(releaseDecider).when(upload).thenState()).toMatchObject({
      stable: false,
      active: false,
      files: [{ fileName: 'setup.exe', platform: 'windows', format: 'exe' }],
    });
  });

  it('publishes at upload in one step: the file, stable and active, recorded together', () => {
    given(releaseDecider)
      .when({ ...upload, publish: true })
      .then([uploaded, stable, active]);
    // A version already live needs no flag events for its next file.
    given(releaseDecider, [uploaded, stable, active])
      .when({ ...upload, ...deb, platform: 'linux', publish: true })
      .then([debUploaded]);
  });

  it('holds one file per platform and format: a .deb and a .tar.gz for Linux, but not two .deb files', () => {
    given(releaseDecider, [uploaded])
      .when({ ...upload, ...deb, platform: 'linux' })
      .then([debUploaded]);
    const archive = { ...deb, objectKey: 'releases/2.1.0/c3/host.tar.gz', fileName: 'host.tar.gz' };
    given(releaseDecider, [uploaded, debUploaded])
      .when({ ...upload, ...archive, platform: 'linux' })
      .then([{ type: 'ReleaseUploaded', data: { ...archive, platform: 'linux' } }]);
    given(releaseDecider, [uploaded, debUploaded])
      .when({ ...upload, ...deb, objectKey: 'releases/2.1.0/d4/other.deb', fileName: 'other.deb', platform: 'linux' })
      .thenThrows(/Version 2\.1\.0 already has a Linux \(\.deb\) file/);
    given(releaseDecider, [uploaded])
      .when(upload)
      .thenThrows(/already has a Windows installer file/);
  });

  it('refuses a file whose extension does not suit its platform, on the file field', () => {
    given(releaseDecider)
      .when({ ...upload, platform: 'linux' })
      .thenThrows(expect.objectContaining({ field: 'file', message: 'A Linux release must be a .deb or .tar.gz file; setup.exe is not.' }));
    given(releaseDecider)
      .when({ ...upload, fileName: 'host.AppImage' })
      .thenThrows(/A Windows release must be a \.exe or \.zip file; host\.AppImage is not/);
    expect(() => platformOf('notes.txt')).toThrow(/Choose a \.exe or \.zip file for Windows, or a \.deb or \.tar\.gz file for Linux/);
    expect(platformOf('Meshwork.TAR.GZ')).toBe('linux');
  });

  it('reads an old upload without a platform by its extension, never offering a file of another kind', () => {
    expect(fileKind({ fileName: 'meshwork-host-0.1.0-linux-x64.tar.gz' })).toEqual({ platform: 'linux', format: 'tar.gz' });
    expect(fileKind({ fileName: 'MeshworkSetup.exe' })).toEqual({ platform: 'windows', format: 'exe' });
    expect(fileKind({ fileName: 'Meshwork.msi' })).toEqual({ platform: 'windows', format: null });
    const old: ReleaseEvent = { type: 'ReleaseUploaded', data: { ...file, fileName: 'host.tar.gz' } };
    // The old Linux archive takes the Linux archive's place: a second one is refused, a .deb is not.
    given(releaseDecider, [old])
      .when({ ...upload, fileName: 'again.tar.gz', platform: 'linux' })
      .thenThrows(/already has a Linux archive/);
    given(releaseDecider, [old])
      .when({ ...upload, ...deb, platform: 'linux' })
      .then([debUploaded]);
  });

  it('publishes and withdraws in one step, each flag only when it changes', () => {
    given(releaseDecider, [uploaded]).when({ type: 'ChangeRelease', at, stable: true, active: true }).then([stable, active]);
    given(releaseDecider, [uploaded, stable]).when({ type: 'ChangeRelease', at, stable: true, active: true }).then([active]);
    given(releaseDecider, [uploaded, stable, active])
      .when({ type: 'ChangeRelease', at, active: false })
      .then([{ type: 'ReleaseDeactivated', data: { version: '2.1.0' } }]);
    given(releaseDecider, [uploaded, stable])
      .when({ type: 'ChangeRelease', at, stable: false })
      .then([{ type: 'ReleaseStableWithdrawn', data: { version: '2.1.0' } }]);
    given(releaseDecider, [uploaded]).when({ type: 'ChangeRelease', at, active: false }).then([]);
    given(releaseDecider)
      .when({ type: 'ChangeRelease', at, active: true })
      .thenThrows(/not found/);
  });
});

describe('download decider', () => {
  it('records each download once', () => {
    const facts = { downloadId: 'd1', kind: 'desktop' as const, ref: 'r1', version: '2.1.0', fileName: 'x.exe', size: 5 };
    given(downloadDecider)
      .when({ type: 'RecordDownload', at, ...facts })
      .then([{ type: 'DownloadRecorded', data: facts }]);
    given(downloadDecider, [{ type: 'DownloadRecorded', data: facts }])
      .when({ type: 'RecordDownload', at, ...facts })
      .then([]);
  });
});

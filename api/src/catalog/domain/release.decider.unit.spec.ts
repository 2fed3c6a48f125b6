import { given } from '../../platform/testing/given-when-then';
import { type ReleaseEvent, releaseDecider } from './release.decider';
import { downloadDecider } from './download.decider';

const at = new Date('2026-03-01T10:00:00Z');
const file = {
  version: '2.1.0',
  releaseNotes: 'Faster',
  objectKey: 'releases/2.1.0/setup.exe',
  fileName: 'setup.exe',
  size: 5,
  sha256: 'b'.repeat(64),
};
const uploaded: ReleaseEvent = { type: 'ReleaseUploaded', data: file };

describe('release decider', () => {
  it('uploads a version once, inactive and not stable', () => {
    given(releaseDecider)
      .when({ type: 'UploadRelease', at, ...file })
      .then([uploaded]);
    given(releaseDecider, [uploaded])
      .when({ type: 'UploadRelease', at, ...file })
      .thenThrows(/already been uploaded/);
    expect(
      given(releaseDecider)
        .when({ type: 'UploadRelease', at, ...file })
        .thenState(),
    ).toMatchObject({ stable: false, active: false });
  });

  it('marks stable and activates, each once, and can take both back', () => {
    given(releaseDecider, [uploaded])
      .when({ type: 'MarkStable', at, stable: true })
      .then([{ type: 'ReleaseMarkedStable', data: { version: '2.1.0' } }]);
    given(releaseDecider, [uploaded, { type: 'ReleaseMarkedStable', data: { version: '2.1.0' } }])
      .when({ type: 'MarkStable', at, stable: false })
      .then([{ type: 'ReleaseStableWithdrawn', data: { version: '2.1.0' } }]);
    given(releaseDecider, [uploaded])
      .when({ type: 'SetActive', at, active: true })
      .then([{ type: 'ReleaseActivated', data: { version: '2.1.0' } }]);
    given(releaseDecider, [uploaded]).when({ type: 'SetActive', at, active: false }).then([]);
    given(releaseDecider)
      .when({ type: 'SetActive', at, active: true })
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

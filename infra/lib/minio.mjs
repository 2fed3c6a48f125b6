// MinIO (S3-compatible object store), built from source with `go install`.
//
// WHY a pseudo-version: MinIO tags releases as RELEASE.<date>, which are not
// semver, so the Go module proxy cannot resolve them as versions (it answers
// 403 for `@RELEASE.2025-10-15T17-29-55Z`). `go list -m github.com/minio/minio@latest`
// resolves to this pseudo-version of the master branch, which we pin.
import path from 'node:path';
import fs from 'node:fs';
import { credentials, host, paths, ports } from './config.mjs';
import { goInstall } from './gotool.mjs';
import { spawnDetached } from './proc.mjs';

export const MINIO_MODULE = 'github.com/minio/minio';
export const MINIO_VERSION = process.env.MESHWORK_MINIO_VERSION || 'v0.0.0-20260212201848-7aac2a2c5b7c';

const dataDir = path.join(paths.data('minio'), 'data');
let bin;

export default {
  name: 'minio',
  marker: 'minio',
  stopSignal: 'SIGTERM',
  stopTimeoutMs: 20000,
  startTimeoutMs: 60000,
  ports: () => [ports.minio, ports.minioConsole],
  url: () => `http://${host}:${ports.minio}`,
  external: () => null,

  async install() {
    bin = await goInstall('minio', MINIO_MODULE, MINIO_VERSION, { logName: 'minio-install', expect: '~5-6 min' });
    fs.mkdirSync(dataDir, { recursive: true });
  },

  launch() {
    return spawnDetached(
      'minio',
      bin,
      ['server', dataDir, '--address', `${host}:${ports.minio}`, '--console-address', `${host}:${ports.minioConsole}`],
      {
        marker: 'minio',
        env: {
          MINIO_ROOT_USER: credentials.minioUser,
          MINIO_ROOT_PASSWORD: credentials.minioPassword,
          MINIO_REGION: credentials.s3Region,
          MINIO_UPDATE: 'off', // never phone home for updates
        },
      },
    );
  },

  async probe() {
    const res = await fetch(`http://${host}:${ports.minio}/minio/health/live`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  },
};

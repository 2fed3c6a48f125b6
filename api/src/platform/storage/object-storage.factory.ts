import path from 'node:path';
import { Client } from 'minio';
import type { AppConfig } from '../config/config';
import { LocalDiskStorage } from './local-disk-storage';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage';

/** The configured storage: S3 (MinIO) when S3_ENDPOINT is set, else a folder under the data dir. */
export function objectStorageFor(config: AppConfig, signingKey: Buffer): ObjectStorage {
  if (!config.S3_ENDPOINT) return new LocalDiskStorage(path.join(config.dataDir, 'objects'), signingKey, config.publicUrl);
  const endpoint = new URL(config.S3_ENDPOINT);
  const client = new Client({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80)),
    useSSL: endpoint.protocol === 'https:',
    accessKey: config.S3_ACCESS_KEY!,
    secretKey: config.S3_SECRET_KEY!,
    region: config.S3_REGION,
  });
  return new S3Storage(client, config.S3_BUCKET);
}

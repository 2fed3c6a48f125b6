import fs from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'minio';
import type { AppConfig } from '../config/config';
import { type ComponentHealth, probe } from '../health/component-health';

/**
 * Where model files and installers live. S3 (MinIO in development) in full mode; a folder
 * on local disk in embedded mode. The catalog context adds reads and writes; the platform
 * only needs to know it is reachable.
 */
export interface ObjectStorage {
  health(): Promise<ComponentHealth>;
}

export const OBJECT_STORAGE = Symbol('ObjectStorage');

export function objectStorageFor(config: AppConfig): ObjectStorage {
  if (!config.S3_ENDPOINT) return new LocalDiskStorage(path.join(config.dataDir, 'objects'));
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

export class S3Storage implements ObjectStorage {
  constructor(
    readonly client: Client,
    readonly bucket: string,
  ) {}

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await this.client.bucketExists(this.bucket);
    });
    return {
      status: result.up ? 'up' : 'down',
      required: true,
      mode: 's3',
      bucket: this.bucket,
      latencyMs: result.latencyMs,
      detail: result.detail,
    };
  }
}

export class LocalDiskStorage implements ObjectStorage {
  constructor(readonly root: string) {}

  async health(): Promise<ComponentHealth> {
    const result = await probe(async () => {
      await fs.mkdir(this.root, { recursive: true });
      await fs.access(this.root, fs.constants.W_OK);
    });
    return { status: result.up ? 'up' : 'down', required: true, mode: 'local-disk', path: this.root, detail: result.detail };
  }
}

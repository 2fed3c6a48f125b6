// Types for object-store.cjs, for the TypeScript kits and tests that load it.
import type { Client } from 'minio';

export declare function minioClient(env?: NodeJS.ProcessEnv): Client;
export declare function isTestBucket(name: string): boolean;
export declare function removeBucket(client: Client, bucket: string): Promise<void>;

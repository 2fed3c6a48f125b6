/**
 * A test app's objects are its own: MinIO is shared by every test app running at once and by
 * `npm start`, so what an app's api stores goes to a bucket of the app's own, a second instance
 * on its database stores there too and leaves it at close, and closing the owner removes the
 * bucket with everything in it while another app's objects stay.
 */
import { Readable } from 'node:stream';
import { OBJECT_STORAGE, type ObjectStorage } from '../../../api/src/platform/storage/object-storage';
import { startTestApp, type TestApp } from './test-app';
import { leftUnder, minioClient } from './upload-kit';

/** Stores `key` the way the api stores an upload's files (ObjectStorage.put, a multipart upload). */
const upload = (subject: TestApp, key: string) =>
  subject.app.get<ObjectStorage>(OBJECT_STORAGE).put(key, Readable.from([Buffer.from(`bytes of ${key}`)]));

describe('a test app’s objects in MinIO', () => {
  const minio = minioClient();
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((subject) => subject.close())));

  it('are removed when the app closes, and no other app’s are', async () => {
    const [owner, other] = await Promise.all([startTestApp({ STRIPE_SECRET_KEY: '' }), startTestApp({ STRIPE_SECRET_KEY: '' })]);
    apps.push(owner, other);
    const second = await startTestApp({ STRIPE_SECRET_KEY: '' }, owner);
    expect(second.bucket).toBe(owner.bucket);
    expect(other.bucket).not.toBe(owner.bucket);

    await Promise.all([
      upload(owner, 'models/mine/weights.bin'),
      upload(second, 'models/second/weights.bin'),
      upload(other, 'models/theirs/weights.bin'),
    ]);
    expect(await leftUnder(minio, owner.bucket, 'models/')).toEqual(['models/mine/weights.bin', 'models/second/weights.bin']);

    // A second instance leaves the objects to the owner, as it leaves the database.
    await second.close();
    expect(await leftUnder(minio, owner.bucket, 'models/')).toEqual(['models/mine/weights.bin', 'models/second/weights.bin']);

    await apps.shift()!.close(); // the owner
    expect(await minio.bucketExists(owner.bucket)).toBe(false);
    expect(await leftUnder(minio, other.bucket, 'models/')).toEqual(['models/theirs/weights.bin']);
  });
});

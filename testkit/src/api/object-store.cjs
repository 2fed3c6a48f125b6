// The test servers' object store (MinIO), as tests and test processes see it: a client, and the
// removal of a bucket a test made. CommonJS, so api-process.cjs and the TypeScript kits share it.
const { Client } = require('minio');

/** As infra.ts's `required` (this file is CommonJS, loaded where TypeScript is not). */
function required(name, env) {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set. Run the tests with \`npm test\`, which starts the servers on loopback (infra/).`);
  return value;
}

/** A MinIO client on the test servers (named by `env`'s S3_* settings), to see what the api left in storage. */
function minioClient(env = process.env) {
  const endpoint = new URL(required('S3_ENDPOINT', env));
  return new Client({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port),
    useSSL: false,
    accessKey: required('S3_ACCESS_KEY', env),
    secretKey: required('S3_SECRET_KEY', env),
    region: env.S3_REGION ?? 'us-east-1',
  });
}

/**
 * Every test app and api process keeps its objects in a bucket of its own (`meshwork-test-*`,
 * `test-*` after its database), removed at its close: a killed run leaves some behind.
 */
function isTestBucket(name) {
  return name.startsWith('meshwork-test-') || name.startsWith('test-');
}

/** Removes `bucket` with every object and unfinished multipart upload in it (S3 removes only an empty bucket). */
async function removeBucket(client, bucket) {
  if (!(await client.bucketExists(bucket))) return;
  const objects = [];
  for await (const item of client.listObjectsV2(bucket, '', true)) objects.push(String(item.name));
  await client.removeObjects(bucket, objects);
  for await (const item of client.listIncompleteUploads(bucket, '', true)) await client.removeIncompleteUpload(bucket, item.key);
  await client.removeBucket(bucket);
}

module.exports = { isTestBucket, minioClient, removeBucket };

import { contentSecurityPolicies, storageOrigins } from './content-security-policy';

const embedded = { S3_ENDPOINT: undefined, S3_BUCKET: 'meshwork', publicUrl: 'https://meshwork.example' };

describe('storageOrigins: where presigned URLs point', () => {
  it('is the public URL for the embedded local-disk storage, whose URLs the api signs and answers', () => {
    expect(storageOrigins({ ...embedded, publicUrl: 'http://localhost:3000' })).toEqual(['http://localhost:3000']);
  });

  it('is the endpoint for MinIO and other path-style storage', () => {
    expect(storageOrigins({ ...embedded, S3_ENDPOINT: 'http://127.0.0.1:19000/' })).toEqual(['http://127.0.0.1:19000']);
  });

  it('adds the bucket’s own host for Amazon S3, whose URLs are virtual-host style', () => {
    expect(storageOrigins({ ...embedded, S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com', S3_BUCKET: 'models' })).toEqual([
      'https://s3.eu-west-1.amazonaws.com',
      'https://models.s3.eu-west-1.amazonaws.com',
    ]);
  });
});

describe('contentSecurityPolicies', () => {
  const policies = contentSecurityPolicies({ ...embedded, S3_ENDPOINT: 'https://minio.example:9000' });

  it('lets the site talk to us and to storage, and run nothing inline', () => {
    expect(policies.site).toContain("connect-src 'self' https://minio.example:9000;");
    expect(policies.site).toContain("script-src 'self';");
    expect(policies.site).toContain("style-src 'self';");
    expect(policies.site).not.toMatch(/unsafe|nonce/);
  });

  it('puts each console answer’s own nonce in style-src, and allows WebAssembly but no eval', () => {
    expect(policies.console('abc123')).toContain("style-src 'self' 'nonce-abc123';");
    expect(policies.console('abc123')).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(policies.console('abc123')).not.toContain("'unsafe-eval'");
  });

  it('lets nothing load or run from a JSON answer, nor frame it', () => {
    expect(policies.api).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('keeps the OpenAPI page to our scripts and hashed inline styles, with no storage to talk to', () => {
    expect(policies.docs).toContain("script-src 'self';");
    expect(policies.docs).toMatch(/style-src 'self' 'unsafe-hashes'( 'sha256-[A-Za-z0-9+/]{43}=')+;/);
    expect(policies.docs).toContain("connect-src 'self';");
  });
});

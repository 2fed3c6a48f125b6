import type { ArgumentMetadata } from '@nestjs/common';
import type { z } from 'zod';
import { ValidationFailed, ZodPipe } from '../../platform/http/validation';

const KNOWN_GRANTS = new Set(['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token']);

/**
 * A ZodPipe for the grant's endpoints: input that fails its schema is answered as OAuth
 * clients expect (RFC 6749 §5.2: `error` invalid_request, or unsupported_grant_type for a
 * grant type that is not ours), beside the spec's `message` and field map.
 */
export class DeviceOAuthPipe<T extends z.ZodType> extends ZodPipe<T> {
  override transform(value: unknown, metadata?: ArgumentMetadata): z.output<T> {
    try {
      return super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      const grantType = (value as { grant_type?: unknown } | null)?.grant_type;
      const unsupported = typeof grantType === 'string' && grantType !== '' && !KNOWN_GRANTS.has(grantType);
      const code = unsupported ? 'unsupported_grant_type' : 'invalid_request';
      throw new ValidationFailed({ ...error.body, error: code, error_description: error.body.message });
    }
  }
}

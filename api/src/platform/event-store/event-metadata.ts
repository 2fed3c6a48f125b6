import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '@meshwork/contracts';
import { requestContext } from '../logging/logger';

/**
 * Metadata for events caused by the current request: its correlation id (the one in the
 * logs and the X-Correlation-Id response header) and who made it. Outside a request
 * (schedulers, workers) it is a system actor with a fresh correlation id.
 */
export function currentEventMetadata(causationId: string | null = null): EventMetadata {
  const context = requestContext.getStore();
  return {
    correlationId: context?.correlationId ?? randomUUID(),
    causationId,
    actor: {
      userId: context?.userId ?? null,
      isStaff: context?.isStaff ?? false,
      ip: context?.ip ?? null,
      userAgent: context?.userAgent ?? null,
      ...(context?.apiTokenId ? { via: 'api_token' as const, tokenId: context.apiTokenId } : {}),
    },
  };
}

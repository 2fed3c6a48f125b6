import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { EntitlementKeySet } from '@meshwork/contracts';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { EntitlementSigner } from '../infrastructure/entitlement-signer';

/**
 * How long hosts and proxies may keep the key set. Short, because a rotation publishes the
 * next key and waits at least this long before signing with it; a host that meets an
 * unknown key id fetches the set again anyway.
 */
const KEY_SET_MAX_AGE_SECONDS = 300;

/** The public keys entitlement documents are signed with: public, no sign-in. */
@Tag('devices')
@Controller('devices/keys')
export class SigningKeysController {
  constructor(private readonly signer: EntitlementSigner) {}

  @Get()
  @Route({ summary: 'The public keys that sign entitlement documents, as a JWK set (Ed25519).', response: EntitlementKeySet })
  keys(@Res({ passthrough: true }) response: Response): EntitlementKeySet {
    response.setHeader('Cache-Control', `public, max-age=${KEY_SET_MAX_AGE_SECONDS}`);
    return this.signer.keySet(new Date());
  }
}

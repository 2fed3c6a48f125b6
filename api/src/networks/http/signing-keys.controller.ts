import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { EntitlementKeySet, SignedKeySet } from '@meshwork/contracts';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
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
  constructor(
    private readonly signer: EntitlementSigner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Route({ summary: 'The public keys that sign entitlement documents, as a JWK set (Ed25519).', response: EntitlementKeySet })
  keys(@Res({ passthrough: true }) response: Response): EntitlementKeySet {
    response.setHeader('Cache-Control', `public, max-age=${KEY_SET_MAX_AGE_SECONDS}`);
    return this.signer.keySet(new Date());
  }

  @Get('signed')
  @Route({
    summary: 'The same key set signed by the active key: a host that pinned the keys at sign-in trusts a new key only through it.',
    response: SignedKeySet,
  })
  signed(@Res({ passthrough: true }) response: Response): SignedKeySet {
    response.setHeader('Cache-Control', `public, max-age=${KEY_SET_MAX_AGE_SECONDS}`);
    return { token: this.signer.signedKeySet(this.config.publicUrl, new Date()) };
  }
}

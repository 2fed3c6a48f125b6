import { Injectable } from '@nestjs/common';
import type { ApiToken } from '@meshwork/contracts';
import { IdentityContext } from './identity-context';

/** A user's API tokens, never their secrets: the owner's unrevoked ones, or all of them for staff. */
@Injectable()
export class ApiTokensQuery {
  constructor(private readonly identity: IdentityContext) {}

  ofUser(userId: string, withRevoked = false): Promise<ApiToken[]> {
    return this.identity.apiTokens.list(userId, withRevoked);
  }
}

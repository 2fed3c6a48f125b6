import { Injectable } from '@nestjs/common';
import { IdentityContext } from './identity-context';

/**
 * What another context may do to identity's signed-in users (open sessions and their users,
 * kept in memory between requests): forget a user, so that after it changes what the user
 * object shows (plan, limits) this process reads the change on the user's next request.
 */
@Injectable()
export class SignedInUserCache {
  constructor(private readonly identity: IdentityContext) {}

  forget(userId: string): void {
    this.identity.signedIn.forget(userId);
  }
}

import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ApiTokenScope, CreatedApiToken } from '@meshwork/contracts';
import { apiTokenHash, newApiTokenSecret } from '../infrastructure/api-token-secret';
import { MAX_API_TOKENS } from '../infrastructure/api-token-store';
import { IdentityContext } from './identity-context';
import { USER_PLANS, type UserPlans } from './user-plans.port';

export class CreateApiToken {
  constructor(
    readonly userId: string,
    readonly name: string,
    readonly scope: ApiTokenScope,
    readonly expiresInDays: number | null,
    readonly at: Date,
  ) {}
}

const DAY_MS = 86_400_000;

/**
 * Creates an API token within the plan's scope: the event first (the audit trail's record,
 * without the secret), then the row that makes it work, so no token works unrecorded. The
 * secret is in the answer and nowhere else.
 */
@CommandHandler(CreateApiToken)
export class CreateApiTokenHandler implements ICommandHandler<CreateApiToken, CreatedApiToken> {
  constructor(
    private readonly identity: IdentityContext,
    @Inject(USER_PLANS) private readonly plans: UserPlans,
  ) {}

  async execute({ userId, name, scope, expiresInDays, at }: CreateApiToken): Promise<CreatedApiToken> {
    const plan = (await this.plans.of([userId])).get(userId)!;
    const tokenId = randomUUID();
    const secret = newApiTokenSecret();
    const expiresAt = expiresInDays === null ? null : new Date(at.getTime() + expiresInDays * DAY_MS);
    await this.identity.tokenStreams.execute(tokenId, {
      type: 'CreateApiToken',
      at,
      tokenId,
      userId,
      name,
      scope,
      lastFour: secret.slice(-4),
      expiresAt: expiresAt?.toISOString() ?? null,
      planScope: plan.api_token_scope,
      activeTokens: await this.identity.apiTokens.countActive(userId),
      maxTokens: MAX_API_TOKENS,
    });
    const token = await this.identity.apiTokens.insert({
      id: tokenId,
      userId,
      name,
      scope,
      hash: apiTokenHash(secret),
      lastFour: secret.slice(-4),
      createdAt: at,
      expiresAt,
    });
    return { ...token, token: secret };
  }
}

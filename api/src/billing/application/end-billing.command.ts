/**
 * Ends a user's paid subscription now, at the provider too: sent by the account deletion
 * before it deletes anything, so a deleted account is never charged again. (Its own file,
 * free of imports, so identity can send it without depending on billing.)
 */
export class EndBillingForDeletedAccount {
  constructor(
    readonly userId: string,
    readonly at: Date,
  ) {}
}

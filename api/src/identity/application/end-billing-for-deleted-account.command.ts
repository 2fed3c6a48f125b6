/**
 * What identity asks of billing before it deletes an account: end the user's paid
 * subscription now, at the provider too, so a deleted account is never charged again.
 * Identity defines and sends it; billing handles it (billing depends on identity, never
 * the other way).
 */
export class EndBillingForDeletedAccount {
  constructor(
    readonly userId: string,
    readonly at: Date,
  ) {}
}

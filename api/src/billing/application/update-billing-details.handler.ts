import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DATABASE, type Database } from '../../platform/database/database';
import { readYourWrites } from '../../platform/projections/projection-waiter';
import { type BillingDetailsFields, SEALED_BILLING_FIELDS } from '../domain/billing-details.decider';
import { INVOICES_PROJECTION } from '../projections/invoices.entities';
import { InvoicingContext } from './invoicing-context';

export class UpdateBillingDetails {
  constructor(
    readonly userId: string,
    readonly details: BillingDetailsFields,
    readonly at: Date,
  ) {}
}

/** The customer saves who their invoices are made out to: sealed under their key, then recorded. */
@CommandHandler(UpdateBillingDetails)
export class UpdateBillingDetailsHandler implements ICommandHandler<UpdateBillingDetails, void> {
  constructor(
    private readonly invoicing: InvoicingContext,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  async execute({ userId, details, at }: UpdateBillingDetails): Promise<void> {
    const sealed = await this.invoicing.personal.encryptFields(userId, details, SEALED_BILLING_FIELDS);
    const { position } = await this.invoicing.billingDetails.execute(userId, { type: 'UpdateBillingDetails', at, details: sealed });
    await readYourWrites(this.database.pool, [INVOICES_PROJECTION], position);
  }
}

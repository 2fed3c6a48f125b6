import type { Decider } from '../../platform/domain/decider';

/**
 * Who a customer's invoices are made out to. Name, address and tax id arrive sealed under the
 * customer's personal-data key (PersonalFields), so the log holds them encrypted; the
 * country is plain.
 */
export interface BillingDetailsFields {
  name: string;
  address: string;
  country: string;
  taxId: string;
}

/** The fields sealed under the customer's key, in events and read models alike. */
export const SEALED_BILLING_FIELDS = ['name', 'address', 'taxId'] as const;

export type BillingDetailsState = BillingDetailsFields | null;
export type BillingDetailsCommand = { type: 'UpdateBillingDetails'; at: Date; details: BillingDetailsFields };
export type BillingDetailsEvent = { type: 'BillingDetailsUpdated'; data: BillingDetailsFields };

/** A customer's billing details (stream `billingdetails-<user id>`): each save replaces them. */
export const billingDetailsDecider: Decider<BillingDetailsCommand, BillingDetailsEvent, BillingDetailsState> = {
  initialState: () => null,
  // Sealed values differ on every encryption, so an unchanged form is recorded again: harmless.
  decide: (command) => [{ type: 'BillingDetailsUpdated', data: command.details }],
  evolve: (_state, event) => event.data,
};

import { Inject, Injectable } from '@nestjs/common';
import { PersonalFields } from '../../identity';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { AggregateRepository } from '../../platform/domain/aggregate-repository';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import {
  type BillingDetailsCommand,
  billingDetailsDecider,
  type BillingDetailsEvent,
  type BillingDetailsState,
} from '../domain/billing-details.decider';
import {
  type InvoiceReceiptCommand,
  invoiceReceiptDecider,
  type InvoiceReceiptEvent,
  type InvoiceReceiptState,
} from '../domain/invoice-receipt.decider';
import { InvoiceSeries } from './invoice-series';

/** What the invoice handlers share: the numbering series, the billing details and the vault. */
@Injectable()
export class InvoicingContext {
  /** One stream per numbering series: `invoices-MW-2026`. */
  readonly invoiceSeries: InvoiceSeries;
  /** One stream per customer: `billingdetails-<user id>`. */
  readonly billingDetails: AggregateRepository<BillingDetailsCommand, BillingDetailsEvent, BillingDetailsState>;
  /** One stream per invoice whose receipt was mailed: `invoicereceipt-<invoice id>`. */
  readonly receipts: AggregateRepository<InvoiceReceiptCommand, InvoiceReceiptEvent, InvoiceReceiptState>;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(EVENT_STORE) readonly store: EventStore,
    readonly personal: PersonalFields,
  ) {
    this.invoiceSeries = new InvoiceSeries(store);
    this.billingDetails = new AggregateRepository(store, billingDetailsDecider, 'billingdetails');
    this.receipts = new AggregateRepository(store, invoiceReceiptDecider, 'invoicereceipt');
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { z } from 'zod';
import { BillingDetails, BillingDetailsRequest, Invoice, uuid } from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { InvoiceQueries } from '../application/invoices.query';
import { UpdateBillingDetails } from '../application/update-billing-details.handler';

const invoiceId = new ZodPipe(uuid('Invoice id'));

/** The customer's invoices and credit notes, their PDFs, and who they are made out to. */
@Tag('billing')
@Controller('billing')
@UseGuards(AuthGuard)
export class InvoicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: InvoiceQueries,
  ) {}

  @Get('invoices')
  @Route({ summary: 'Your invoices and credit notes, newest first.', response: z.array(Invoice) })
  invoices(@CurrentCaller() caller: Caller): Promise<Invoice[]> {
    return this.queries.ofCustomer(caller.userId);
  }

  @Get('invoices/:id/pdf')
  @Route({ summary: 'One of your invoices as a PDF (404 for anyone else’s).', file: 'application/pdf' })
  async pdf(@CurrentCaller() caller: Caller, @Param('id', invoiceId) id: string, @Res() response: Response): Promise<void> {
    const { headers, document } = await this.queries.pdf(id, caller.userId);
    response.set(headers);
    document.pipe(response);
  }

  @Get('details')
  @Route({ response: BillingDetails })
  details(@CurrentCaller() caller: Caller): Promise<BillingDetails> {
    return this.queries.billingDetails(caller.userId);
  }

  @Post('details')
  @HttpCode(200)
  @Route({ summary: 'Who your invoices are made out to, from the next one on.', response: BillingDetails })
  async updateDetails(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(BillingDetailsRequest)) body: z.output<typeof BillingDetailsRequest>,
  ): Promise<BillingDetails> {
    const { name, address, country, tax_id: taxId } = body;
    await this.commands.execute(new UpdateBillingDetails(caller.userId, { name, address, country, taxId }, new Date()));
    return this.queries.billingDetails(caller.userId);
  }
}

import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import { AdminInvoice, uuid } from '@meshwork/contracts';
import { InvoiceQueries } from '../../billing';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';

const invoiceId = new ZodPipe(uuid('Invoice id'));
const InvoiceFilter = z.object({ user_id: uuid('User id').optional(), payment_id: uuid('Payment id').optional() });

/** The console's invoices and credit notes: staff and auditors read them and their PDFs. */
@Tag('admin-panel')
@Controller('admin-panel/invoices')
@UseGuards(StaffGuard)
export class AdminInvoicesController {
  constructor(private readonly queries: InvoiceQueries) {}

  @Get()
  @Route({
    summary: "Newest first: one customer's (user_id), one payment's (payment_id), or the newest 500.",
    response: z.array(AdminInvoice),
  })
  list(@Query(new ZodPipe(InvoiceFilter)) filter: z.output<typeof InvoiceFilter>): Promise<AdminInvoice[]> {
    return this.queries.forConsole({ userId: filter.user_id, paymentId: filter.payment_id });
  }

  @Get(':id/pdf')
  @Route({ summary: 'An invoice or credit note as a PDF.', file: 'application/pdf' })
  async pdf(@Param('id', invoiceId) id: string, @Res() response: Response): Promise<void> {
    const { headers, document } = await this.queries.pdf(id, null);
    response.set(headers);
    document.pipe(response);
  }
}

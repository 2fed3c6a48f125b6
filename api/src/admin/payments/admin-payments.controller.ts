import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { z } from 'zod';
import { AdminPayment, centsOf, RefundRequest, uuid } from '@meshwork/contracts';
import { BillingConsoleQueries, RefundPayment } from '../../billing';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { contentRange, type ListQuery, ListQueryPipe } from '../../platform/http/react-admin-list';
import { ZodPipe } from '../../platform/http/validation';

const paymentId = new ZodPipe(uuid('Payment id'));

/** The console's payments resource: search, date filter, and refunds through the provider. */
@Tag('admin-panel')
@Controller('admin-panel/payments')
@UseGuards(StaffGuard)
export class AdminPaymentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: BillingConsoleQueries,
  ) {}

  @Get()
  @Route({ summary: 'filter: {q: email, name, transaction id or plan; period: all | today | 7d | month}', response: z.array(AdminPayment) })
  async list(
    @Query(new ListQueryPipe(BillingConsoleQueries.sortablePayments, ['createdDate', 'DESC'])) list: ListQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AdminPayment[]> {
    const { rows, total } = await this.queries.adminPayments(list, new Date());
    response.setHeader('Content-Range', contentRange('payments', list.offset, rows.length, total));
    response.setHeader('Access-Control-Expose-Headers', 'Content-Range');
    return rows;
  }

  @Get(':id')
  @Route({ response: AdminPayment })
  one(@Param('id', paymentId) id: string): Promise<AdminPayment> {
    return this.queries.adminPayment(id);
  }

  @Post(':id/refund')
  @HttpCode(200)
  @Route({
    summary: 'Refund all or part of a completed payment; the sum of refunds never exceeds the amount.',
    response: AdminPayment,
  })
  async refund(
    @Param('id', paymentId) id: string,
    @Body(new ZodPipe(RefundRequest)) body: z.output<typeof RefundRequest>,
  ): Promise<AdminPayment> {
    await this.commands.execute(new RefundPayment(id, centsOf(body.amount), body.reason, new Date()));
    return this.queries.adminPayment(id);
  }
}

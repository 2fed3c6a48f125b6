import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { z } from 'zod';
import { type AdminPlan, PlanInput, planSlug, PlanUpdate } from '../../../../contracts/src/billing/billing.contract';
import { BillingContext } from '../../billing/application/billing-context';
import { BillingQueries } from '../../billing/application/billing-queries';
import { ArchivePlan, CreatePlan, planIdOf, UpdatePlan } from '../../billing/application/plan.handlers';
import { RestorePlan } from '../../billing/application/restore-plan.handler';
import { CatalogAdmin } from '../../catalog/application/catalog-admin';
import { StaffGuard } from '../../identity/http/auth.guard';
import { contentRange, listFilter } from '../../platform/http/react-admin-list';
import { ZodPipe } from '../../platform/http/validation';

const planId = new ZodPipe(planSlug);

/**
 * The console's plans resource (ra-data-simple-rest). Plans are few, so the list is whole:
 * react-admin's range and sort are honoured on the full set. Every change is a billing
 * command, recorded with the staff member who made it. A plan's allowed models are the
 * catalog's (each model's plans): the form's list is checked first and applied to the
 * models after the plan's own change.
 */
@ApiTags('admin-panel')
@ApiBearerAuth()
@Controller('admin-panel/plans')
@UseGuards(StaffGuard)
export class AdminPlansController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: BillingQueries,
    private readonly billing: BillingContext,
    private readonly catalog: CatalogAdmin,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) response: Response): Promise<AdminPlan[]> {
    const { q, archived } = listFilter(query);
    const plans = await this.queries.adminPlans(typeof q === 'string' ? q : undefined, archived === true);
    response.setHeader('Content-Range', contentRange('plans', 0, plans.length, plans.length));
    response.setHeader('Access-Control-Expose-Headers', 'Content-Range');
    return plans;
  }

  /** Archived plans too, marked so: the console offers to restore them. */
  @Get(':id')
  one(@Param('id', planId) id: string): Promise<AdminPlan> {
    return this.queries.adminPlan(id);
  }

  @Post()
  async create(@Body(new ZodPipe(PlanInput)) body: z.output<typeof PlanInput>): Promise<AdminPlan> {
    const models = await this.catalog.planModelsChange(planIdOf(body), body.allowed_models);
    const { planId, position } = await this.commands.execute<CreatePlan, { planId: string; position: number }>(
      new CreatePlan(body, new Date()),
    );
    await this.billing.caughtUp(position);
    await models.apply(new Date());
    return this.queries.adminPlan(planId);
  }

  /** react-admin sends the whole record; fields outside the form's are ignored. An archived plan is restored first (409). */
  @Put(':id')
  async update(@Param('id', planId) id: string, @Body(new ZodPipe(PlanUpdate)) body: z.output<typeof PlanUpdate>): Promise<AdminPlan> {
    const models = body.allowed_models === undefined ? null : await this.catalog.planModelsChange(id, body.allowed_models);
    const position = await this.commands.execute<UpdatePlan, number>(new UpdatePlan(id, body, new Date()));
    await this.billing.caughtUp(position);
    await models?.apply(new Date());
    return this.queries.adminPlan(id);
  }

  @Delete(':id')
  async remove(@Param('id', planId) id: string): Promise<{ id: string }> {
    const position = await this.commands.execute<ArchivePlan, number>(new ArchivePlan(id, new Date()));
    await this.billing.caughtUp(position);
    return { id };
  }

  /** Puts an archived plan back on sale, as it was; answers the plan. */
  @Post(':id/restore')
  @HttpCode(200)
  async restore(@Param('id', planId) id: string): Promise<AdminPlan> {
    const position = await this.commands.execute<RestorePlan, number>(new RestorePlan(id, new Date()));
    await this.billing.caughtUp(position);
    return this.queries.adminPlan(id);
  }
}

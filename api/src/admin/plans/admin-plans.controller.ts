import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { z } from 'zod';
import { AdminPlan, DeletedAnswer, PlanInput, planSlug, PlanUpdate } from '@meshwork/contracts';
import { ArchivePlan, BillingConsoleQueries, RestorePlan } from '../../billing';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { contentRange, ListFilterPipe } from '../../platform/http/react-admin-list';
import { ZodPipe } from '../../platform/http/validation';
import { CreatePlanWithModels } from './create-plan-with-models.handler';
import { UpdatePlanWithModels } from './update-plan-with-models.handler';

const planId = new ZodPipe(planSlug);

/**
 * The console's plans resource (ra-data-simple-rest). Plans are few, so the list is whole:
 * react-admin's range and sort are honoured on the full set. Every change is one command,
 * recorded with the staff member who made it; the form's, which also sets the catalog
 * models the plan may download, is the admin's (see create-plan-with-models.handler.ts).
 */
@Tag('admin-panel')
@Controller('admin-panel/plans')
@UseGuards(StaffGuard)
export class AdminPlansController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: BillingConsoleQueries,
  ) {}

  /** Plans are few: the whole list, cheapest first, whatever the range; the filter's `q` searches. */
  @Get()
  @Route({ summary: 'filter: {q: name or slug; archived: true for the archived plans only}', response: z.array(AdminPlan) })
  async list(
    @Query(new ListFilterPipe()) filter: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AdminPlan[]> {
    const { q, archived } = filter;
    const plans = await this.queries.adminPlans(typeof q === 'string' ? q : undefined, archived === true);
    response.setHeader('Content-Range', contentRange('plans', 0, plans.length, plans.length));
    response.setHeader('Access-Control-Expose-Headers', 'Content-Range');
    return plans;
  }

  /** Archived plans too, marked so: the console offers to restore them. */
  @Get(':id')
  @Route({ response: AdminPlan })
  one(@Param('id', planId) id: string): Promise<AdminPlan> {
    return this.queries.adminPlan(id);
  }

  @Post()
  @Route({ response: AdminPlan })
  async create(@Body(new ZodPipe(PlanInput)) body: z.output<typeof PlanInput>): Promise<AdminPlan> {
    const planId = await this.commands.execute<CreatePlanWithModels, string>(new CreatePlanWithModels(body, new Date()));
    return this.queries.adminPlan(planId);
  }

  /** react-admin sends the whole record; fields outside the form's are ignored. An archived plan is restored first (409). */
  @Put(':id')
  @Route({ response: AdminPlan })
  async update(@Param('id', planId) id: string, @Body(new ZodPipe(PlanUpdate)) body: z.output<typeof PlanUpdate>): Promise<AdminPlan> {
    await this.commands.execute(new UpdatePlanWithModels(id, body, new Date()));
    return this.queries.adminPlan(id);
  }

  @Delete(':id')
  @Route({
    summary: 'Archive the plan: it can no longer be bought; its subscribers keep it until their period ends.',
    response: DeletedAnswer,
  })
  async remove(@Param('id', planId) id: string): Promise<{ id: string }> {
    await this.commands.execute(new ArchivePlan(id, new Date()));
    return { id };
  }

  /** Puts an archived plan back on sale, as it was; answers the plan. */
  @Post(':id/restore')
  @HttpCode(200)
  @Route({ summary: 'Put an archived plan back on sale, as it was.', response: AdminPlan })
  async restore(@Param('id', planId) id: string): Promise<AdminPlan> {
    await this.commands.execute(new RestorePlan(id, new Date()));
    return this.queries.adminPlan(id);
  }
}

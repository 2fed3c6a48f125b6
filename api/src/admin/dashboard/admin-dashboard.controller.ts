import { Controller, Get, UseGuards } from '@nestjs/common';
import { AdminDashboardStats } from '@meshwork/contracts';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { AdminDashboard } from './admin-dashboard.query';

/** The console dashboard's figures (spec "Dashboard stats"), from the read models. */
@Tag('admin-panel')
@Controller('admin-panel/dashboard')
@UseGuards(StaffGuard)
export class AdminDashboardController {
  constructor(private readonly dashboard: AdminDashboard) {}

  @Get()
  @Route({ response: AdminDashboardStats })
  stats(): Promise<AdminDashboardStats> {
    return this.dashboard.stats();
  }
}

import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { AdminNetworkList, uuid } from '@meshwork/contracts';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { AdminNetworkQueries } from '../application/admin-network.query';

const userId = new ZodPipe(uuid('User id'));

/**
 * The console's view of a user's networks (read only: staff act on devices, the customer on networks).
 * Canonical under the console's `admin-panel/` prefix; the older `admin/` paths stay as an alias.
 */
@Tag('admin-networks')
@Controller(['admin-panel', 'admin'])
@UseGuards(StaffGuard)
export class NetworksAdminController {
  constructor(private readonly queries: AdminNetworkQueries) {}

  @Get('users/:id/networks')
  @Route({
    summary: "A user's networks, oldest first, suspended ones with the reason; an unknown user has none.",
    response: AdminNetworkList,
  })
  async networks(@Param('id', userId) id: string): Promise<AdminNetworkList> {
    return { networks: await this.queries.networksOf(id) };
  }
}

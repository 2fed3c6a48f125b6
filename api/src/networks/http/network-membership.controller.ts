import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { AssignHostRequest, JoinCode, JoinNetworkRequest, Network, NetworkId, uuid } from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { DeviceClock } from '../application/devices/device-clock';
import { AssignHost } from '../application/membership/assign-host.handler';
import { IssueJoinCode } from '../application/membership/issue-join-code.handler';
import { JoinNetwork } from '../application/membership/join-network.handler';
import { LeaveNetwork } from '../application/membership/leave-network.handler';
import { ReleaseHost } from '../application/membership/release-host.handler';
import { RemoveClient } from '../application/membership/remove-client.handler';
import { NetworkQueries } from '../application/network.query';

const networkId = new ZodPipe(NetworkId);
const deviceId = new ZodPipe(uuid('Device'));

/**
 * Network membership (issue 12, section 2): one host device, and client devices of the same
 * customer joining by the code the host shows. Times come from the device clock, which tests
 * move forward to expire codes.
 */
@Tag('networks')
@Controller('networks')
@UseGuards(AuthGuard)
export class NetworkMembershipController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: NetworkQueries,
    private readonly clock: DeviceClock,
  ) {}

  @Post('join')
  @HttpCode(200)
  @Route({
    summary: "Join a network with the code its host shows, from the joining device's own session (not the site's).",
    response: Network,
    errors: [403, 409, 429, 503],
  })
  async join(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(JoinNetworkRequest)) body: z.output<typeof JoinNetworkRequest>,
  ): Promise<Network> {
    const id = await this.commands.execute<JoinNetwork, string>(
      new JoinNetwork(caller.userId, caller.deviceId, body.code, this.clock.now()),
    );
    return this.queries.one(caller.userId, id);
  }

  @Post(':id/host')
  @HttpCode(200)
  @Route({
    summary: 'Make one of your active devices the network’s host; the host device itself also registers its LAN certificate.',
    response: Network,
    errors: [400, 404, 409],
  })
  async assignHost(
    @CurrentCaller() caller: Caller,
    @Param('id', networkId) id: string,
    @Body(new ZodPipe(AssignHostRequest)) body: z.output<typeof AssignHostRequest>,
  ): Promise<Network> {
    await this.commands.execute(
      new AssignHost(caller.userId, id, body.device_id, this.clock.now(), body.certificate_sha256 ?? null, caller.deviceId),
    );
    return this.queries.one(caller.userId, id);
  }

  @Delete(':id/host')
  @Route({ summary: 'Release the network’s host; its clients stay and a new host can be assigned.', response: Network, errors: [404] })
  async releaseHost(@CurrentCaller() caller: Caller, @Param('id', networkId) id: string): Promise<Network> {
    await this.commands.execute(new ReleaseHost(caller.userId, id, this.clock.now()));
    return this.queries.one(caller.userId, id);
  }

  @Post(':id/join-code')
  @HttpCode(200)
  @Route({
    summary: 'A fresh join code (XXXX-XXXX, 15 minutes), for the owner on the site or the host device; it replaces the one before.',
    response: JoinCode,
    errors: [403, 404, 409],
  })
  joinCode(@CurrentCaller() caller: Caller, @Param('id', networkId) id: string): Promise<JoinCode> {
    return this.commands.execute<IssueJoinCode, JoinCode>(new IssueJoinCode(caller.userId, caller.deviceId, id, this.clock.now()));
  }

  @Post(':id/leave')
  @HttpCode(200)
  @Route({ summary: 'The calling device leaves the network (from its own session).', response: Network, errors: [403, 404, 409] })
  async leave(@CurrentCaller() caller: Caller, @Param('id', networkId) id: string): Promise<Network> {
    await this.commands.execute(new LeaveNetwork(caller.userId, caller.deviceId, id, this.clock.now()));
    return this.queries.one(caller.userId, id);
  }

  @Delete(':id/clients/:device_id')
  @Route({ summary: 'Remove a client device from the network.', response: Network, errors: [404] })
  async removeClient(
    @CurrentCaller() caller: Caller,
    @Param('id', networkId) id: string,
    @Param('device_id', deviceId) client: string,
  ): Promise<Network> {
    await this.commands.execute(new RemoveClient(caller.userId, id, client, this.clock.now()));
    return this.queries.one(caller.userId, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import {
  CreateNetworkRequest,
  DeletedAnswer,
  KeepNetworksRequest,
  Network,
  NetworkId,
  NetworkList,
  RenameNetworkRequest,
} from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { CreateNetwork } from '../application/create-network.handler';
import { DeleteNetwork } from '../application/delete-network.handler';
import { KeepNetworks } from '../application/keep-networks.handler';
import { NetworkContext } from '../application/network-context';
import { NetworkQueries } from '../application/network.query';
import { RenameNetwork } from '../application/rename-network.handler';

const networkId = new ZodPipe(NetworkId);

/** The customer's networks (issue 12, section 2): every call checked against the plan's limits by the server. */
@Tag('networks')
@Controller('networks')
@UseGuards(AuthGuard)
export class NetworksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: NetworkQueries,
    private readonly context: NetworkContext,
  ) {}

  @Get()
  @Route({ summary: 'The networks, oldest first, and the limits in use.', response: NetworkList, errors: [503] })
  list(@CurrentCaller() caller: Caller): Promise<NetworkList> {
    return this.listOf(caller.userId);
  }

  @Post('create')
  @Route({
    summary: "Create a network serving a model the plan includes (model_id: the model's name, or its id).",
    response: Network,
    errors: [403, 409, 503],
  })
  async create(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(CreateNetworkRequest)) body: z.output<typeof CreateNetworkRequest>,
  ): Promise<Network> {
    const id = await this.commands.execute<CreateNetwork, string>(new CreateNetwork(caller.userId, body.name, body.model_id, new Date()));
    return this.queries.one(caller.userId, id);
  }

  @Post('keep')
  @HttpCode(200)
  @Route({
    summary: 'Choose which networks run when the plan allows fewer than you have; others are suspended as needed.',
    response: NetworkList,
    errors: [403, 404, 503],
  })
  async keep(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(KeepNetworksRequest)) body: z.output<typeof KeepNetworksRequest>,
  ): Promise<NetworkList> {
    await this.commands.execute(new KeepNetworks(caller.userId, body.network_ids, new Date()));
    return this.listOf(caller.userId);
  }

  @Get(':id')
  @Route({ response: Network, errors: [404] })
  one(@CurrentCaller() caller: Caller, @Param('id', networkId) id: string): Promise<Network> {
    return this.queries.one(caller.userId, id);
  }

  @Patch(':id')
  @Route({ summary: 'Rename a network.', response: Network, errors: [404, 409] })
  async rename(
    @CurrentCaller() caller: Caller,
    @Param('id', networkId) id: string,
    @Body(new ZodPipe(RenameNetworkRequest)) body: z.output<typeof RenameNetworkRequest>,
  ): Promise<Network> {
    await this.commands.execute(new RenameNetwork(caller.userId, id, body.name, new Date()));
    return this.queries.one(caller.userId, id);
  }

  @Delete(':id')
  @Route({ summary: 'Delete a network.', response: DeletedAnswer, errors: [404] })
  async remove(@CurrentCaller() caller: Caller, @Param('id', networkId) id: string): Promise<DeletedAnswer> {
    await this.commands.execute(new DeleteNetwork(caller.userId, id, new Date()));
    return { id };
  }

  private async listOf(userId: string): Promise<NetworkList> {
    const [networks, limits] = await Promise.all([this.queries.list(userId), this.context.limitsOf(userId)]);
    return {
      networks,
      limits: { max_networks: limits.maxNetworks, max_clients_per_network: limits.maxClientsPerNetwork, used: networks.length },
    };
  }
}

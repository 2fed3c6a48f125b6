import { ApplyPlanLimitsHandler } from './apply-plan-limits.handler';
import { CreateNetworkHandler } from './create-network.handler';
import { DeleteNetworkHandler } from './delete-network.handler';
import { deviceCommandHandlers } from './devices';
import { KeepNetworksHandler } from './keep-networks.handler';
import { membershipCommandHandlers } from './membership';
import { RenameNetworkHandler } from './rename-network.handler';

/** Every networks append is one of these commands: devices, device codes, networks. */
export const networksCommandHandlers = [
  ...deviceCommandHandlers,
  CreateNetworkHandler,
  RenameNetworkHandler,
  DeleteNetworkHandler,
  KeepNetworksHandler,
  ApplyPlanLimitsHandler,
  ...membershipCommandHandlers,
];

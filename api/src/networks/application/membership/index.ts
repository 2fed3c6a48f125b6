import { AssignHostHandler } from './assign-host.handler';
import { IssueJoinCodeHandler } from './issue-join-code.handler';
import { JoinNetworkHandler } from './join-network.handler';
import { LeaveNetworkHandler } from './leave-network.handler';
import { ReleaseDeviceHandler } from './release-device.handler';
import { ReleaseHostHandler } from './release-host.handler';
import { RemoveClientHandler } from './remove-client.handler';

/** Network membership: host, join codes, clients joining and leaving, revoked devices' places freed. */
export const membershipCommandHandlers = [
  AssignHostHandler,
  ReleaseHostHandler,
  IssueJoinCodeHandler,
  JoinNetworkHandler,
  LeaveNetworkHandler,
  RemoveClientHandler,
  ReleaseDeviceHandler,
];

import { Injectable } from '@nestjs/common';
import { type AggregateHistory, historyOf } from '../../platform/domain/aggregate-history';
import { DevicesContext } from './devices/devices-context';
import { NetworkContext } from './network-context';

/** The networks' and devices' aggregates as the audit context replays them, without the write side. */
@Injectable()
export class NetworksHistory {
  readonly aggregates: readonly AggregateHistory[];

  constructor(networks: NetworkContext, devices: DevicesContext) {
    this.aggregates = [networks.networks, devices.devices].map(historyOf);
  }
}

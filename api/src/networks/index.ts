// The networks context's public face: what other contexts may use. Anything else in
// networks/ is its own business (ESLint refuses deep imports from outside).
export { NetworksModule } from './networks.module';
export { DeviceDirectory, type DeviceView } from './application/devices/device-directory';
export { DEVICES_ENTITIES, DeviceRecord, DEVICES_PROJECTION } from './projections/devices.entities';
export { PLAN_LIMITS_FOLLOWER } from './application/network-plan-limits.follower';
export { NetworkQueries } from './application/network-queries';
export { NETWORKS_ENTITIES, NETWORKS_PROJECTION, NetworkClientRecord, NetworkRecord } from './projections/networks.entities';
export { AdminNetworkQueries, type NetworkFigures } from './application/admin-network-queries';
export { NetworkContext } from './application/network-context';
export { DevicesContext } from './application/devices/devices-context';

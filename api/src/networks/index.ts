// The networks context's public face: only what other contexts call. Its events (types and
// stored names) are in events.ts. Anything else in networks/ is its own business (ESLint
// refuses deep imports from outside).
export { AdminNetworkQueries } from './application/admin-network.query';
export { PLAN_LIMITS_FOLLOWER } from './application/network-plan-limits.follower';
export { NetworksHistory } from './application/networks-history';
export { NetworksModule } from './networks.module';

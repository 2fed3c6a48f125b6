import { deviceCommandHandlers } from './devices';

/** Every networks append is one of these commands: devices, device codes, networks. */
export const networksCommandHandlers = [...deviceCommandHandlers];

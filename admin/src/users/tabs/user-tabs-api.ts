import type {
  AdminApiTokenList,
  AdminDevice,
  AdminDeviceList,
  AdminNetwork,
  AdminNetworkList,
  ApiToken,
  MessageAnswer,
} from '@meshwork/contracts';
import { authorizedFetch } from '../../auth/http-client';
import { API_BASE } from '../../auth/site-urls';

const ADMIN = `${API_BASE}/admin-panel`;

/**
 * A user's devices and networks (issue 12), beyond the users resource's CRUD. They join the
 * data provider as methods of their own, so a refused session reaches the auth provider.
 */
export const userDeviceMethods = {
  /** GET /admin-panel/users/{id}/devices/: newest first, revoked ones included. */
  getUserDevices: async (userId: string): Promise<AdminDevice[]> =>
    ((await authorizedFetch(`${ADMIN}/users/${encodeURIComponent(userId)}/devices/`)).json as AdminDeviceList).devices,

  /** GET /admin-panel/users/{id}/networks/: oldest first, suspended ones with their reason. */
  getUserNetworks: async (userId: string): Promise<AdminNetwork[]> =>
    ((await authorizedFetch(`${ADMIN}/users/${encodeURIComponent(userId)}/networks/`)).json as AdminNetworkList).networks,

  /** POST /admin-panel/devices/{id}/revoke/: the device's tokens stop working at once. */
  revokeDevice: async (deviceId: string): Promise<MessageAnswer> =>
    (await authorizedFetch(`${ADMIN}/devices/${encodeURIComponent(deviceId)}/revoke/`, { method: 'POST' })).json as MessageAnswer,

  /** GET /admin-panel/users/{id}/api-tokens/: newest first, revoked ones included, never their secrets. */
  getUserApiTokens: async (userId: string): Promise<ApiToken[]> =>
    ((await authorizedFetch(`${ADMIN}/users/${encodeURIComponent(userId)}/api-tokens/`)).json as AdminApiTokenList).tokens,

  /** DELETE /admin-panel/users/{id}/api-tokens/{tokenId}/: the token is refused from the next request on. */
  revokeUserApiToken: async (userId: string, tokenId: string): Promise<void> => {
    await authorizedFetch(`${ADMIN}/users/${encodeURIComponent(userId)}/api-tokens/${encodeURIComponent(tokenId)}/`, { method: 'DELETE' });
  },
};

export const userApiTokensKey = (userId: string) => ['admin', 'users', userId, 'api-tokens'] as const;

/** The query keys of a user's devices and networks; revoking a device refreshes both (the Networks tab names devices too). */
export const userDevicesKey = (userId: string) => ['admin', 'users', userId, 'devices'] as const;
export const userNetworksKey = (userId: string) => ['admin', 'users', userId, 'networks'] as const;

/**
 * Every api call of this device's LAN network, in one place: the api records the network, its
 * host (with its certificate, which the api vouches for in every document of the account), the
 * join codes and the memberships. The roles never call the api; the facade does, through here.
 */
import { JoinCode, Network } from '@meshwork/contracts';
import type { ApiClient } from '../api/api-client';
import { HostRefusal } from '../host';

export class NetworkApi {
  /** `device`: the signed-in device, null while signed out (then every call is refused). */
  constructor(private readonly device: () => { deviceId: string; api: ApiClient } | null) {}

  private get signedIn() {
    const device = this.device();
    if (!device) throw new HostRefusal({ code: 'sign_in_first' });
    return device;
  }

  private get api(): ApiClient {
    return this.signedIn.api;
  }

  create(name: string, model: string): Promise<Network> {
    return this.api.request('/networks/create/', { body: { name, model_id: model }, schema: Network });
  }

  /** Makes this device the network's host, presenting the certificate its members will pin. */
  async registerHost(networkId: string, certificate: string): Promise<void> {
    const { api, deviceId } = this.signedIn;
    await api.request(`/networks/${networkId}/host/`, {
      body: { device_id: deviceId, certificate_sha256: certificate },
      schema: Network,
    });
  }

  /** The host stops hosting; the network stays on the account for another host. */
  async stopHosting(networkId: string): Promise<void> {
    await this.api.request(`/networks/${networkId}/host/`, { method: 'DELETE', schema: Network });
  }

  newJoinCode(networkId: string): Promise<JoinCode> {
    return this.api.request(`/networks/${networkId}/join-code/`, { body: {}, schema: JoinCode });
  }

  /** Records the membership, checking the plan's cap: the network the code is for. */
  join(code: string): Promise<Network> {
    return this.api.request('/networks/join/', { body: { code }, schema: Network });
  }

  async leave(networkId: string): Promise<void> {
    await this.api.request(`/networks/${networkId}/leave/`, { body: {}, schema: Network });
  }

  async removeClient(networkId: string, deviceId: string): Promise<void> {
    await this.api.request(`/networks/${networkId}/clients/${deviceId}/`, { method: 'DELETE', schema: Network });
  }
}

import { given } from '../../platform/testing/given-when-then';
import type { NetworksEvent, PlanChange } from './network.events';
import type { NetworkLimits } from './network-limits';
import { networksDecider } from './networks.decider';

const at = new Date('2026-03-01T10:00:00Z');
const llama = { id: 'm-llama', name: 'llama' };
const mistral = { id: 'm-mistral', name: 'mistral' };
const free: NetworkLimits = { planId: 'free', planName: 'Free', maxNetworks: 1, maxClientsPerNetwork: 2, allowedModels: ['llama'] };
const pro: NetworkLimits = {
  planId: 'pro',
  planName: 'Pro',
  maxNetworks: 5,
  maxClientsPerNetwork: 10,
  allowedModels: ['llama', 'mistral'],
};
const enterprise: NetworkLimits = { ...pro, planId: 'enterprise', planName: 'Enterprise', maxNetworks: 999, maxClientsPerNetwork: 999 };
const toFree: PlanChange = { planId: 'free', planName: 'Free', source: 'subscription', eventId: 'e1' };
const toPro: PlanChange = { planId: 'pro', planName: 'Pro', source: 'subscription', eventId: 'e2' };

const created = (id: string, model = llama): NetworksEvent => ({
  type: 'NetworkCreated',
  data: { networkId: id, name: `net ${id}`, model },
});
const host = (id: string, deviceId = `host-${id}`): NetworksEvent => ({ type: 'HostAssigned', data: { networkId: id, deviceId } });
const code = (id: string, expiresAt = '2026-03-01T10:10:00.000Z'): NetworksEvent => ({
  type: 'JoinCodeIssued',
  data: { networkId: id, codeHash: `code-${id}`, expiresAt },
});
const joined = (id: string, deviceId: string): NetworksEvent => ({ type: 'ClientJoined', data: { networkId: id, deviceId } });
const suspended = (id: string, kind: 'plan_limit' | 'model_not_allowed', change = toFree): NetworksEvent => ({
  type: 'NetworkSuspended',
  data: { networkId: id, cause: { kind, change } },
});
const resumed = (id: string, change = toPro): NetworksEvent => ({ type: 'NetworkResumed', data: { networkId: id, change } });
const capped = (id: string, deviceId: string, change = toFree): NetworksEvent => ({
  type: 'ClientDisconnected',
  data: { networkId: id, deviceId, cause: { kind: 'plan_limit', change } },
});
const applyLimits = (limits: NetworkLimits, change: PlanChange) => ({ type: 'ApplyPlanLimits' as const, at, limits, change });
const create = (id: string, limits: NetworkLimits, model = llama, name = `net ${id}`) => ({
  type: 'CreateNetwork' as const,
  at,
  networkId: id,
  name,
  model,
  limits,
});
const threeNetworks = [created('a'), created('b'), created('c')];

describe('networks decider', () => {
  describe('with no network', () => {
    it('creates one with the model the plan allows', () => {
      given(networksDecider)
        .when(create('a', free))
        .then([created('a')]);
    });
    it('refuses a model the plan does not include, naming plan and model', () => {
      given(networksDecider)
        .when(create('a', free, mistral))
        .thenThrows('Your Free plan does not include the model mistral. Upgrade to use it, or choose another model.');
    });
    it('has nothing to rename, delete or host', () => {
      given(networksDecider)
        .when({ type: 'RenameNetwork', at, networkId: 'a', name: 'x' })
        .thenThrows(/not found/);
      given(networksDecider)
        .when({ type: 'DeleteNetwork', at, networkId: 'a' })
        .thenThrows(/not found/);
      given(networksDecider)
        .when({ type: 'AssignHost', at, networkId: 'a', deviceId: 'd', certificateSha256: null })
        .thenThrows(/not found/);
    });
    it('changes nothing when limits apply', () => {
      given(networksDecider).when(applyLimits(free, toFree)).then([]);
    });
  });

  describe('with networks running', () => {
    it('refuses one more than the plan allows, with the upgrade message', () => {
      given(networksDecider, [created('a')])
        .when(create('b', free))
        .thenThrows('Your Free plan allows 1 network. Upgrade to add more.');
      given(networksDecider, threeNetworks.slice(0, 2))
        .when(create('c', { ...free, maxNetworks: 2 }))
        .thenThrows(/allows 2 networks/);
    });
    it('has no cap at 999 (unlimited)', () => {
      const many = Array.from({ length: 1200 }, (_, i) => created(`n${i}`));
      given(networksDecider, many)
        .when(create('x', enterprise))
        .then([created('x')]);
    });
    it('refuses a second network of the same name, whatever its case', () => {
      given(networksDecider, [created('a')])
        .when(create('b', pro, llama, 'NET A'))
        .thenThrows('You already have a network with this name.');
    });
    it('renames, once, and not onto another network name', () => {
      given(networksDecider, [created('a')])
        .when({ type: 'RenameNetwork', at, networkId: 'a', name: 'office' })
        .then([{ type: 'NetworkRenamed', data: { networkId: 'a', name: 'office' } }]);
      given(networksDecider, [created('a')])
        .when({ type: 'RenameNetwork', at, networkId: 'a', name: 'net a' })
        .then([]);
      given(networksDecider, [created('a'), created('b')])
        .when({ type: 'RenameNetwork', at, networkId: 'a', name: 'net b' })
        .thenThrows(/already have a network/);
    });
    it('deletes, which frees a place', () => {
      const state = given(networksDecider, [created('a')])
        .when({ type: 'DeleteNetwork', at, networkId: 'a' })
        .thenState();
      expect(state.networks).toEqual([]);
      given(networksDecider, [created('a'), { type: 'NetworkDeleted', data: { networkId: 'a' } }])
        .when(create('b', free))
        .then([created('b')]);
    });
  });

  describe('when a plan lowers its limits', () => {
    it('suspends the networks above the cap, newest first, naming the plan change', () => {
      given(networksDecider, threeNetworks)
        .when(applyLimits(free, toFree))
        .then([suspended('c', 'plan_limit'), suspended('b', 'plan_limit')]);
    });
    it('suspends a network whose model the plan no longer allows, and counts only the others against the cap', () => {
      given(networksDecider, [created('a', mistral), created('b'), created('c')])
        .when(applyLimits(free, toFree))
        .then([suspended('a', 'model_not_allowed'), suspended('c', 'plan_limit')]);
    });
    it('disconnects the clients above the client cap, newest first, in every network', () => {
      given(networksDecider, [created('a'), host('a'), joined('a', 'd1'), joined('a', 'd2'), joined('a', 'd3'), joined('a', 'd4')])
        .when(applyLimits(free, toFree))
        .then([capped('a', 'd4'), capped('a', 'd3')]);
    });
    it('is idempotent: the same limits again change nothing', () => {
      given(networksDecider, [...threeNetworks, suspended('c', 'plan_limit'), suspended('b', 'plan_limit')])
        .when(applyLimits(free, toFree))
        .then([]);
    });
  });

  describe('with networks suspended', () => {
    const downgraded = [...threeNetworks, suspended('c', 'plan_limit'), suspended('b', 'plan_limit')];

    it('resumes them oldest first when the limit allows again', () => {
      given(networksDecider, downgraded)
        .when(applyLimits({ ...pro, maxNetworks: 2 }, toPro))
        .then([resumed('b')]);
      given(networksDecider, downgraded)
        .when(applyLimits(pro, toPro))
        .then([resumed('b'), resumed('c')]);
    });
    it('resumes a model suspension when the model is allowed again, or tells the limit is now the reason', () => {
      const byModel = [created('a'), created('b', mistral), suspended('b', 'model_not_allowed')];
      given(networksDecider, byModel)
        .when(applyLimits(pro, toPro))
        .then([resumed('b')]);
      given(networksDecider, byModel)
        .when(applyLimits({ ...free, allowedModels: ['llama', 'mistral'] }, toPro))
        .then([suspended('b', 'plan_limit', toPro)]);
    });
    it('changes the reason to the model when a limit-suspended network loses its model', () => {
      given(networksDecider, downgraded)
        .when(applyLimits({ ...free, allowedModels: [] }, toFree))
        .then([suspended('a', 'model_not_allowed'), suspended('b', 'model_not_allowed'), suspended('c', 'model_not_allowed')]);
    });
    it('still counts them: no new network above the cap', () => {
      given(networksDecider, downgraded)
        .when(create('d', { ...free, maxNetworks: 3 }))
        .thenThrows(/allows 3 networks/);
    });
    it('renames and deletes them, but refuses hosts and join codes on them', () => {
      given(networksDecider, downgraded)
        .when({ type: 'DeleteNetwork', at, networkId: 'b' })
        .then([{ type: 'NetworkDeleted', data: { networkId: 'b' } }]);
      given(networksDecider, downgraded)
        .when({ type: 'AssignHost', at, networkId: 'b', deviceId: 'd', certificateSha256: null })
        .thenThrows(/suspended/);
    });

    describe('the customer chooses which to keep', () => {
      const keep = (ids: string[], limits = free) => ({ type: 'KeepNetworks' as const, at, networkIds: ids, limits });
      const byChoice: PlanChange = { planId: 'free', planName: 'Free', source: 'customer', eventId: null };

      it('resumes the chosen one and suspends the running one that no longer fits', () => {
        given(networksDecider, downgraded)
          .when(keep(['c']))
          .then([resumed('c', byChoice), suspended('a', 'plan_limit', byChoice)]);
      });
      it('keeps the others running while there is room, and changes nothing when already so', () => {
        given(networksDecider, downgraded)
          .when(keep(['c'], { ...free, maxNetworks: 2 }))
          .then([resumed('c', { ...byChoice })]);
        given(networksDecider, downgraded)
          .when(keep(['a']))
          .then([]);
      });
      it('refuses more than the cap, an unknown network, and one whose model the plan does not include', () => {
        given(networksDecider, downgraded)
          .when(keep(['a', 'b']))
          .thenThrows('Your Free plan allows 1 network. Choose at most that many to keep.');
        given(networksDecider, downgraded)
          .when(keep(['zzz']))
          .thenThrows(/not found/);
        given(networksDecider, [created('a', mistral), suspended('a', 'model_not_allowed')])
          .when(keep(['a']))
          .thenThrows(/does not include the model mistral/);
      });
    });
  });

  describe('membership', () => {
    const hostReleased = (id: string, deviceId: string, kind: 'released' | 'device_revoked'): NetworksEvent => ({
      type: 'HostReleased',
      data: { networkId: id, deviceId, cause: { kind } },
    });
    const hosted = [created('a'), host('a'), code('a')];
    const join = (deviceId: string, limits = free, codeHash = 'code-a', when = at) => ({
      type: 'JoinClient' as const,
      at: when,
      codeHash,
      deviceId,
      limits,
    });

    it('assigns one host, once', () => {
      given(networksDecider, [created('a')])
        .when({ type: 'AssignHost', at, networkId: 'a', deviceId: 'h', certificateSha256: null })
        .then([host('a', 'h')]);
      given(networksDecider, [created('a'), host('a', 'h')])
        .when({ type: 'AssignHost', at, networkId: 'a', deviceId: 'h', certificateSha256: null })
        .then([]);
      given(networksDecider, [created('a'), host('a', 'h')])
        .when({ type: 'AssignHost', at, networkId: 'a', deviceId: 'other', certificateSha256: null })
        .thenThrows('This network already has a host.');
    });
    it('records the certificate the host registers, again only when it changes, and forgets it on release', () => {
      const [one, two] = ['ab'.repeat(32), 'cd'.repeat(32)];
      const registered = (certificateSha256: string): NetworksEvent => ({
        type: 'HostAssigned',
        data: { networkId: 'a', deviceId: 'h', certificateSha256 },
      });
      const assign = (certificateSha256: string | null) => ({
        type: 'AssignHost' as const,
        at,
        networkId: 'a',
        deviceId: 'h',
        certificateSha256,
      });
      given(networksDecider, [created('a'), host('a', 'h')])
        .when(assign(one))
        .then([registered(one)]);
      given(networksDecider, [created('a'), registered(one)])
        .when(assign(one))
        .then([]);
      given(networksDecider, [created('a'), registered(one)])
        .when(assign(null))
        .then([]);
      given(networksDecider, [created('a'), registered(one)])
        .when(assign(two))
        .then([registered(two)]);
      const state = (events: NetworksEvent[]) => given(networksDecider, events).when(assign(null)).thenState().networks[0];
      expect(state([created('a'), registered(one)])).toMatchObject({ host: 'h', hostCertificate: one });
      // An event from before certificates were recorded reads as none.
      expect(state([created('a'), host('a', 'h')])).toMatchObject({ host: 'h', hostCertificate: null });
      const released: NetworksEvent = { type: 'HostReleased', data: { networkId: 'a', deviceId: 'h', cause: { kind: 'released' } } };
      expect(
        given(networksDecider, [created('a'), registered(one), released])
          .when({ type: 'ReleaseHost', at, networkId: 'a' })
          .thenState().networks[0],
      ).toMatchObject({ host: null, hostCertificate: null });
    });
    it('issues join codes only once a host is there', () => {
      const expiresAt = new Date('2026-03-01T10:10:00Z');
      given(networksDecider, [created('a')])
        .when({ type: 'IssueJoinCode', at, networkId: 'a', codeHash: 'code-a', expiresAt, byDevice: null })
        .thenThrows(/host to this network first/);
      given(networksDecider, [created('a'), host('a')])
        .when({ type: 'IssueJoinCode', at, networkId: 'a', codeHash: 'code-a', expiresAt, byDevice: null })
        .then([code('a')]);
    });
    it('issues join codes to the owner on the site and to the host device, not to another device', () => {
      const expiresAt = new Date('2026-03-01T10:10:00Z');
      given(networksDecider, [created('a'), host('a')])
        .when({ type: 'IssueJoinCode', at, networkId: 'a', codeHash: 'code-a', expiresAt, byDevice: 'host-a' })
        .then([code('a')]);
      given(networksDecider, [created('a'), host('a'), joined('a', 'd1')])
        .when({ type: 'IssueJoinCode', at, networkId: 'a', codeHash: 'code-a', expiresAt, byDevice: 'd1' })
        .thenThrows("Only the network's host device, or you on the site, can issue a join code.");
    });
    it('lets clients join by a live code up to the cap, then refuses with the upgrade message', () => {
      given(networksDecider, hosted)
        .when(join('d1'))
        .then([joined('a', 'd1')]);
      given(networksDecider, [...hosted, joined('a', 'd1')])
        .when(join('d1'))
        .then([]);
      given(networksDecider, [...hosted, joined('a', 'd1'), joined('a', 'd2')])
        .when(join('d3'))
        .thenThrows('Your Free plan allows 2 clients per network. Upgrade to add more.');
      given(networksDecider, [...hosted, joined('a', 'd1'), joined('a', 'd2')])
        .when(join('d3', enterprise))
        .then([joined('a', 'd3')]);
    });
    it('refuses a wrong or expired code, and the host as its own client', () => {
      given(networksDecider, hosted)
        .when(join('d1', free, 'nope'))
        .thenThrows(/invalid or has expired/);
      given(networksDecider, hosted)
        .when(join('d1', free, 'code-a', new Date('2026-03-01T10:10:00Z')))
        .thenThrows(/invalid or has expired/);
      given(networksDecider, hosted)
        .when(join('host-a'))
        .thenThrows(/network's host/);
    });
    it('refuses joining a suspended network', () => {
      given(networksDecider, [...hosted, suspended('a', 'plan_limit')])
        .when(join('d1'))
        .thenThrows(/suspended/);
    });
    it('removes clients, once; a freed place can be taken again', () => {
      const full = [...hosted, joined('a', 'd1'), joined('a', 'd2')];
      given(networksDecider, full)
        .when({ type: 'RemoveClient', at, networkId: 'a', deviceId: 'd2' })
        .then([{ type: 'ClientRemoved', data: { networkId: 'a', deviceId: 'd2' } }]);
      given(networksDecider, full).when({ type: 'RemoveClient', at, networkId: 'a', deviceId: 'zz' }).then([]);
      given(networksDecider, [...full, { type: 'ClientRemoved', data: { networkId: 'a', deviceId: 'd2' } }])
        .when(join('d3'))
        .then([joined('a', 'd3')]);
    });

    it('releases the host, once; the clients stay, the join code ends, and a new host can be assigned', () => {
      const full = [...hosted, joined('a', 'd1')];
      given(networksDecider, full)
        .when({ type: 'ReleaseHost', at, networkId: 'a' })
        .then([hostReleased('a', 'host-a', 'released')]);
      given(networksDecider, [created('a')])
        .when({ type: 'ReleaseHost', at, networkId: 'a' })
        .then([]);
      const after = [...full, hostReleased('a', 'host-a', 'released')];
      given(networksDecider, after)
        .when(join('d2'))
        .thenThrows(/invalid or has expired/);
      given(networksDecider, after)
        .when({ type: 'AssignHost', at, networkId: 'a', deviceId: 'h2', certificateSha256: null })
        .then([host('a', 'h2')]);
      expect(given(networksDecider, after).when({ type: 'ReleaseHost', at, networkId: 'a' }).thenState().networks[0]).toMatchObject({
        host: null,
        joinCode: null,
        clients: ['d1'],
      });
      given(networksDecider)
        .when({ type: 'ReleaseHost', at, networkId: 'a' })
        .thenThrows(/not found/);
    });
    it('lets a client leave, once, but not the host', () => {
      const full = [...hosted, joined('a', 'd1')];
      given(networksDecider, full)
        .when({ type: 'LeaveNetwork', at, networkId: 'a', deviceId: 'd1' })
        .then([{ type: 'ClientDisconnected', data: { networkId: 'a', deviceId: 'd1', cause: { kind: 'left' } } }]);
      given(networksDecider, hosted).when({ type: 'LeaveNetwork', at, networkId: 'a', deviceId: 'd1' }).then([]);
      given(networksDecider, full)
        .when({ type: 'LeaveNetwork', at, networkId: 'a', deviceId: 'host-a' })
        .thenThrows('This device hosts the network: release the host instead.');
    });
    it('frees every place of a revoked device: host of one network, client of another, suspended ones too', () => {
      const history = [created('a'), host('a', 'x'), created('b'), host('b'), code('b'), joined('b', 'x'), joined('b', 'd1')];
      const revoked = { type: 'ReleaseDevice' as const, at, deviceId: 'x' };
      given(networksDecider, history)
        .when(revoked)
        .then([
          hostReleased('a', 'x', 'device_revoked'),
          { type: 'ClientDisconnected', data: { networkId: 'b', deviceId: 'x', cause: { kind: 'device_revoked' } } },
        ]);
      given(networksDecider, [...history, suspended('a', 'plan_limit')])
        .when(revoked)
        .then([
          hostReleased('a', 'x', 'device_revoked'),
          { type: 'ClientDisconnected', data: { networkId: 'b', deviceId: 'x', cause: { kind: 'device_revoked' } } },
        ]);
      given(networksDecider, history)
        .when({ ...revoked, deviceId: 'nobody' })
        .then([]);
    });
  });
});

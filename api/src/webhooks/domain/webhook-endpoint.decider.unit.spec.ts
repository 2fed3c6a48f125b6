import { webhookEndpointDecider, type WebhookEndpointEvent } from './webhook-endpoint.decider';

const at = new Date('2026-11-27T10:00:00Z');
const secret = { sealed: 'sealed', hint: 'whsec_…abcd' };
const created: WebhookEndpointEvent = {
  type: 'WebhookEndpointCreated',
  data: {
    endpointId: 'e1',
    userId: 'u1',
    url: 'https://example.com/hook',
    description: '',
    eventTypes: ['device.revoked'],
    secret,
    at: at.toISOString(),
  },
};
const given = (...events: WebhookEndpointEvent[]) => events.reduce(webhookEndpointDecider.evolve, webhookEndpointDecider.initialState());
const decide = (events: WebhookEndpointEvent[], command: Parameters<typeof webhookEndpointDecider.decide>[0]) =>
  webhookEndpointDecider.decide(command, given(...events));

describe('the webhook endpoint decider', () => {
  describe('a live endpoint', () => {
    it('records only what changed, and enabling or disabling as their own events', () => {
      expect(
        decide([created], { type: 'UpdateEndpoint', at, userId: 'u1', url: 'https://example.com/hook', eventTypes: ['device.revoked'] }),
      ).toEqual([]);
      expect(decide([created], { type: 'UpdateEndpoint', at, userId: 'u1', description: 'CRM', enabled: false })).toEqual([
        { type: 'WebhookEndpointUpdated', data: { description: 'CRM' } },
        { type: 'WebhookEndpointDisabled', data: { reason: 'user' } },
      ]);
    });

    it("is not found for anyone but its owner (the system's stop excepted)", () => {
      expect(() => decide([created], { type: 'DeleteEndpoint', at, userId: 'u2' })).toThrow('Webhook endpoint not found.');
      expect(decide([created], { type: 'DisableEndpoint', at, userId: null, reason: 'failing' })).toEqual([
        { type: 'WebhookEndpointDisabled', data: { reason: 'failing' } },
      ]);
    });

    it('rolls its secret with the old one ending after the overlap', () => {
      expect(decide([created], { type: 'RollSecret', at, userId: 'u1', secret, overlapHours: 24 })).toEqual([
        { type: 'WebhookSecretRolled', data: { secret, previousExpiresAt: '2026-11-28T10:00:00.000Z' } },
      ]);
    });
  });

  describe('a disabled endpoint', () => {
    const disabled: WebhookEndpointEvent = { type: 'WebhookEndpointDisabled', data: { reason: 'failing' } };

    it('is disabled once, and enabled again by its owner', () => {
      expect(decide([created, disabled], { type: 'DisableEndpoint', at, userId: null, reason: 'plan' })).toEqual([]);
      expect(decide([created, disabled], { type: 'UpdateEndpoint', at, userId: 'u1', enabled: true })).toEqual([
        { type: 'WebhookEndpointEnabled', data: {} },
      ]);
      expect(given(created, disabled)).toMatchObject({ enabled: false, disabledReason: 'failing' });
    });
  });

  describe('a deleted endpoint', () => {
    it('takes no more commands', () => {
      const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: {} };
      expect(() => decide([created, deleted], { type: 'UpdateEndpoint', at, userId: 'u1', enabled: true })).toThrow(
        'Webhook endpoint not found.',
      );
    });
  });
});

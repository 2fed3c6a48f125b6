import { EntitlementDocument } from '@meshwork/contracts';
import { buildEntitlementDocument, documentContent, type EntitlementInputs } from './entitlement-document';

const NOW = new Date('2026-03-01T12:00:00.750Z');
const DAY = 86_400;

const inputs = (overrides: Partial<EntitlementInputs> = {}): EntitlementInputs => ({
  issuer: 'https://meshwork.example',
  deviceId: '7a0c9d1e-2b3f-4c5d-8e6f-0a1b2c3d4e5f',
  userId: '1b2c3d4e-5f60-4718-89ab-cdef01234567',
  plan: { slug: 'pro', name: 'Pro', maxNetworks: 5, maxClientsPerNetwork: 10, downloadAccess: true, expiresAt: '2026-03-31T00:00:00.000Z' },
  models: [
    { name: 'zephyr', version: '2.0.0', manifest_sha256: 'cd'.repeat(32) },
    { name: 'alpaca', version: '1.0.0', manifest_sha256: 'ab'.repeat(32) },
  ],
  networks: [
    { id: '2f1e2d3c-4b5a-4978-8877-665544332211', name: 'Office', role: 'host', model: 'alpaca', status: 'active' },
    { id: '1f1e2d3c-4b5a-4978-8877-665544332211', name: 'Lab', role: 'client', model: 'zephyr', status: 'suspended' },
  ],
  now: NOW,
  seq: 1234,
  ...overrides,
});

describe('the entitlement document builder', () => {
  it('writes the plan, the models and the networks, sorted, with the plan’s client cap on each network', () => {
    const document = buildEntitlementDocument(inputs());
    expect(EntitlementDocument.parse(document)).toEqual(document);
    expect(document).toMatchObject({
      v: 1,
      iss: 'https://meshwork.example',
      sub: '7a0c9d1e-2b3f-4c5d-8e6f-0a1b2c3d4e5f',
      plan: { slug: 'pro', max_networks: 5, max_clients_per_network: 10, download_access: true },
      seq: 1234,
    });
    expect(document.models.map((m) => m.name)).toEqual(['alpaca', 'zephyr']);
    expect(document.networks).toEqual([
      { id: '1f1e2d3c-4b5a-4978-8877-665544332211', name: 'Lab', role: 'client', model: 'zephyr', max_clients: 10, status: 'suspended' },
      { id: '2f1e2d3c-4b5a-4978-8877-665544332211', name: 'Office', role: 'host', model: 'alpaca', max_clients: 10, status: 'active' },
    ]);
  });

  it('names the hosts’ registered certificates sorted by network, and leaves the field out when there are none', () => {
    const [office, lab] = ['2f1e2d3c-4b5a-4978-8877-665544332211', '1f1e2d3c-4b5a-4978-8877-665544332211'];
    const hosts = [
      { id: office, certificate_sha256: 'ab'.repeat(32) },
      { id: lab, certificate_sha256: 'cd'.repeat(32) },
    ];
    const document = buildEntitlementDocument(inputs({ hosts }));
    expect(EntitlementDocument.parse(document)).toEqual(document);
    expect(document.hosts).toEqual([hosts[1], hosts[0]]);
    // None registered: the same content as a document from before hosts were named (so the same seq).
    const none = buildEntitlementDocument(inputs({ hosts: [] }));
    expect('hosts' in none).toBe(false);
    expect(documentContent(none)).toBe(documentContent(buildEntitlementDocument(inputs())));
    expect(documentContent(document)).not.toBe(documentContent(none));
  });

  it('expires 7 days after issue, with 7 more days of offline grace, in whole seconds', () => {
    const { iat, exp, grace_until } = buildEntitlementDocument(inputs());
    expect(iat).toBe(Math.floor(NOW.getTime() / 1000));
    expect(exp - iat).toBe(7 * DAY);
    expect(grace_until - exp).toBe(7 * DAY);
  });

  it('writes the plans’ 999 (and anything above) as null, unlimited; real limits stay numbers', () => {
    const enterprise = {
      slug: 'enterprise',
      name: 'Enterprise',
      maxNetworks: 999,
      maxClientsPerNetwork: 1000,
      downloadAccess: true,
      expiresAt: null,
    };
    const document = buildEntitlementDocument(inputs({ plan: enterprise }));
    expect(document.plan).toMatchObject({ max_networks: null, max_clients_per_network: null });
    expect(document.networks.map((n) => n.max_clients)).toEqual([null, null]);
    const free = buildEntitlementDocument(inputs({ plan: { ...enterprise, maxNetworks: 1, maxClientsPerNetwork: 998 } })).plan;
    expect(free).toMatchObject({ max_networks: 1, max_clients_per_network: 998 });
  });

  it('compares documents by what a host would notice: not their times and revision, everything else', () => {
    const document = buildEntitlementDocument(inputs());
    const later = buildEntitlementDocument(inputs({ now: new Date(NOW.getTime() + 60_000), seq: 1300 }));
    expect(documentContent(later)).toBe(documentContent(document));
    const edited = buildEntitlementDocument(inputs({ plan: { ...inputs().plan, maxNetworks: 6 } }));
    expect(documentContent(edited)).not.toBe(documentContent(document));
  });
});

import { z } from 'zod';
import { timestamp } from '../http/http.contract';
import { NetworkStatus, SuspensionKind } from './networks.contract';

/**
 * The console's view of a customer's networks (issue 12, section 4): what staff need to
 * answer "why does my network not run?" without the customer's screen. The host is named,
 * not only numbered, so it can be matched with the user's Devices tab.
 */
export const AdminNetwork = z
  .object({
    id: z.string(),
    name: z.string(),
    model: z.string(),
    status: NetworkStatus,
    suspended_cause: SuspensionKind.nullable(),
    suspended_reason: z.string().nullable().meta({ description: 'Why the network is suspended, as the customer reads it.' }),
    host_device_id: z.string().nullable(),
    host_device_name: z
      .string()
      .nullable()
      .meta({ description: "The host device's name; null without a host (or once its owner's key is shredded)." }),
    client_count: z.number().int(),
    created_at: timestamp,
  })
  .meta({ id: 'AdminNetwork' });
export type AdminNetwork = z.output<typeof AdminNetwork>;

/** `GET /admin/users/{id}/networks/`: oldest first, as the customer's own list. */
export const AdminNetworkList = z.object({ networks: z.array(AdminNetwork) }).meta({ id: 'AdminNetworkList' });
export type AdminNetworkList = z.output<typeof AdminNetworkList>;

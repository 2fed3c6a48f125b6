import type { WebhookDelivery } from '@meshwork/contracts';
import { deliveryStatusLook } from './webhook-format';

/** A delivery's status in words and colour (the words carry it; the colour only helps). */
export function DeliveryStatusBadge({ status }: { status: WebhookDelivery['status'] }) {
  const look = deliveryStatusLook[status];
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-medium ${look.classes}`}>{look.label}</span>;
}

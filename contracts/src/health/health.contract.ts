import { z } from 'zod';
import { timestamp } from '../http/http.contract';

/**
 * GET /health/ and /health/system-status/, as monitors read them. Deliberately open: each
 * component reports what it knows beyond `status` and `required` (latency, lag, head
 * position), and the set of states may grow; a monitor keys on the overall `status` and on
 * the HTTP status (200, or 503 when a required component is down).
 */
export const ComponentHealthAnswer = z
  .looseObject({
    status: z.string().meta({ description: "'up', 'down', or 'off' (not configured in this mode)." }),
    required: z.boolean().meta({ description: 'A required component that is down makes the whole service answer 503.' }),
    mode: z.string().optional(),
    detail: z.string().optional(),
  })
  .meta({ id: 'ComponentHealth' });

export const SystemStatusAnswer = z
  .object({ status: z.string(), checkedAt: timestamp, components: z.record(z.string(), ComponentHealthAnswer) })
  .meta({ id: 'SystemStatus' });

export const OverallStatus = SystemStatusAnswer.pick({ status: true, checkedAt: true }).meta({ id: 'OverallStatus' });

/** GET /health/ping/: the process answers (liveness). */
export const Ping = z.object({ ok: z.literal(true) }).meta({ id: 'Ping' });

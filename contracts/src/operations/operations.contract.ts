import { z } from 'zod';
import { integer, text } from '../common/fields';
import { timestamp } from '../http/http.contract';

/**
 * The staff console's view of the log consumers (projections and the Kafka relay), and the
 * two things staff may do about one that is stuck: retry it, or skip its event on the record.
 */

/** Up only while it applies events; failing while it retries one; stalled once it stopped retrying. */
export const ProjectionState = z.enum(['up', 'failing', 'stalled', 'not_running']);
export type ProjectionState = z.output<typeof ProjectionState>;

/** GET /admin-panel/system/projections/ (one item per consumer). */
export const ProjectionStatus = z
  .object({
    name: z.string(),
    state: ProjectionState,
    running: z.boolean().meta({ description: 'Whether some process runs it now.' }),
    position: z.number().int(),
    positionsBehind: z.number().int(),
    millisecondsBehind: z.number(),
    failure: z
      .object({
        position: z.number().int(),
        eventId: z.string(),
        eventType: z.string(),
        attempts: z.number().int(),
        error: z.string(),
        firstFailedAt: timestamp,
        lastFailedAt: timestamp,
      })
      .nullable()
      .meta({ description: 'The event it cannot get past, while failing or stalled.' }),
  })
  .meta({ id: 'ProjectionStatus' });
export type ProjectionStatus = z.output<typeof ProjectionStatus>;

/** A log consumer's name in a route: a projection's or the relay's. */
export const projectionName = text('Projection', { max: 64 }).regex(/^[a-z][a-z0-9_-]*$/, 'Projection names are lowercase');

/** POST /admin-panel/system/projections/{name}/skip/: which event, and why, for the record. */
export const SkipProjectionEventRequest = z.strictObject({
  position: integer('Position', { min: 1, max: Number.MAX_SAFE_INTEGER }),
  reason: text('Reason', { max: 500, multiline: true }),
});
export type SkipProjectionEventRequest = z.input<typeof SkipProjectionEventRequest>;

import { z } from 'zod';
import { integer, text } from '../common/fields';

/**
 * The staff console's view of the log consumers (projections and the Kafka relay), and the
 * two things staff may do about one that is stuck: retry it, or skip its event on the record.
 */

/** Up only while it applies events; failing while it retries one; stalled once it stopped retrying. */
export type ProjectionState = 'up' | 'failing' | 'stalled' | 'not_running';

/** GET /admin-panel/system/projections/ (one item per consumer). */
export interface ProjectionStatus {
  name: string;
  state: ProjectionState;
  /** Whether some process runs it now. */
  running: boolean;
  position: number;
  positionsBehind: number;
  millisecondsBehind: number;
  /** The event it cannot get past, while failing or stalled. */
  failure: {
    position: number;
    eventId: string;
    eventType: string;
    attempts: number;
    error: string;
    firstFailedAt: string;
    lastFailedAt: string;
  } | null;
}

/** A log consumer's name in a route: a projection's or the relay's. */
export const projectionName = text('Projection', { max: 64 }).regex(/^[a-z][a-z0-9_-]*$/, 'Projection names are lowercase');

/** POST /admin-panel/system/projections/{name}/skip/: which event, and why, for the record. */
export const SkipProjectionEventRequest = z.strictObject({
  position: integer('Position', { min: 1, max: Number.MAX_SAFE_INTEGER }),
  reason: text('Reason', { max: 500, multiline: true }),
});
export type SkipProjectionEventRequest = z.input<typeof SkipProjectionEventRequest>;

import { z } from 'zod';

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

/** Whether the text holds a control character other than tab and line breaks. */
function hasControlCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code < 0x20 && char !== '\t' && char !== '\n' && char !== '\r') || code === 0x7f) return true;
  }
  return false;
}

/** POST /admin-panel/system/projections/{name}/skip/: which event, and why, for the record. */
export const SkipProjectionEventRequest = z.strictObject({
  position: z
    .number({ error: 'Position must be a whole number' })
    .int('Position must be a whole number')
    .min(1, 'Position must be at least 1'),
  reason: z
    .string({ error: 'Reason is required' })
    .trim()
    .min(1, 'Reason is required')
    .max(500, 'Reason must be at most 500 characters')
    .refine((text) => !hasControlCharacter(text), 'Reason must not contain control characters'),
});
export type SkipProjectionEventRequest = z.input<typeof SkipProjectionEventRequest>;

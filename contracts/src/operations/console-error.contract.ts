import { z } from 'zod';
import { text, uuid } from '../common/fields';

/**
 * A crash of a console screen, reported by its error boundary (issue 15 §6): the id the
 * crash screen shows, so a staff member quoting it finds the report in the audit trail.
 */
export const ConsoleErrorReport = z
  .object({
    error_id: uuid('Error id'),
    screen: text('Screen', { max: 100 }),
    message: text('Message', { max: 2000, multiline: true }),
    stack: text('Stack', { max: 20_000, required: false, multiline: true }).default(''),
    url: text('URL', { max: 2000 }),
  })
  .strict()
  .meta({ id: 'ConsoleErrorReport' });
export type ConsoleErrorReport = z.output<typeof ConsoleErrorReport>;

export const ConsoleErrorReceipt = z.object({ error_id: z.string() }).meta({ id: 'ConsoleErrorReceipt' });
export type ConsoleErrorReceipt = z.output<typeof ConsoleErrorReceipt>;

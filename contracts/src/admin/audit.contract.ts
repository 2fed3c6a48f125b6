import { z } from 'zod';
import { queryInteger, text, uuid } from '../common/fields';
import { timestamp } from '../http/http.contract';

/**
 * The audit trail (issue 15): the event log, read by staff and auditors. Every event is one
 * entry; filters combine with AND; pages go from the newest entry back, by cursor.
 */

const filterText = (label: string) => text(label, { max: 200, required: false }).optional();

/**
 * A time bound, passed on as UTC: ISO 8601 allows offsets (+19:45) and years (0621) that
 * PostgreSQL refuses or reads otherwise, so the database only ever sees JavaScript's own form.
 */
const timeBound = (description: string) =>
  timestamp
    .transform((value) => new Date(value).toISOString())
    .optional()
    .meta({ description });

/** `GET /admin-panel/audit/` and its CSV export take the same filters. */
export const AuditFilter = z
  .object({
    actor: filterText('Actor').meta({ description: "The actor's user id or email." }),
    action: filterText('Action').meta({ description: 'An event type, such as PaymentRefunded.' }),
    resource_type: filterText('Resource type').meta({
      description: 'user, plan, subscription, payment, model, release, device, networks, ...',
    }),
    resource_id: filterText('Resource id'),
    correlation_id: filterText('Correlation id').meta({ description: 'Every event one request caused.' }),
    from: timeBound('Entries at or after this time.'),
    to: timeBound('Entries before this time.'),
  })
  .strict();
export type AuditFilter = z.output<typeof AuditFilter>;

export const AuditQuery = AuditFilter.extend({
  cursor: queryInteger('Cursor', { min: 1, max: Number.MAX_SAFE_INTEGER })
    .optional()
    .meta({ description: 'next_cursor of the previous page.' }),
  limit: queryInteger('Limit', { min: 1, max: 200 }).default(50),
}).strict();
export type AuditQuery = z.output<typeof AuditQuery>;

/** Who caused an entry: a person (email, or 'erased user' once their account is deleted) or the system (null). */
export const AuditActor = z
  .object({
    id: uuid('Actor id'),
    email: z.string().meta({ description: "The actor's email now, or 'erased user' after their account was deleted." }),
    is_staff: z.boolean(),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    api_token_id: z.string().nullable().meta({ description: 'The API token that made the request; null for a signed-in session.' }),
  })
  .meta({ id: 'AuditActor' });
export type AuditActor = z.output<typeof AuditActor>;

export const AuditEntry = z
  .object({
    id: z.string().meta({ description: 'The event id.' }),
    position: z.number().int().meta({ description: "The event's position in the log." }),
    action: z.string(),
    resource: z.string(),
    resource_id: z.string(),
    version: z.number().int().meta({ description: "The resource's version after this event." }),
    timestamp,
    actor: AuditActor.nullable(),
    correlation_id: z.string(),
    causation_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).meta({ description: "The event's data without secrets or personal fields." }),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.output<typeof AuditEntry>;

export const AuditPage = z.object({ results: z.array(AuditEntry), next_cursor: z.number().int().nullable() }).meta({ id: 'AuditPage' });
export type AuditPage = z.output<typeof AuditPage>;

/** The name shown for an actor whose account, and so whose email, has been erased. */
export const ERASED_USER = 'erased user';

/** `GET /admin-panel/audit/integrity/`: how far the log is sealed, and what the last `audit:verify` found. */
export const AuditIntegrity = z
  .object({
    chained_to: z.number().int().meta({ description: 'The last position linked into the hash chain.' }),
    sealed_to: z.number().int().meta({ description: 'The last position covered by a signed seal.' }),
    sealed_at: timestamp.nullable(),
    last_verification: z
      .object({
        verified_to: z.number().int(),
        events: z.number().int(),
        first_broken: z.number().int().nullable(),
        problem: z.string().nullable(),
        finished_at: timestamp,
      })
      .nullable(),
  })
  .meta({ id: 'AuditIntegrity' });
export type AuditIntegrity = z.output<typeof AuditIntegrity>;

/**
 * A point in the log: a position (digits) or a time (ISO 8601 with offset). Events at or
 * before it count.
 */
export const LogPoint = z
  .string()
  .refine((value) => /^[1-9]\d{0,15}$/.test(value) || timestamp.safeParse(value).success, {
    error: 'Give a log position (a whole number) or a time (ISO 8601 with offset)',
  })
  .meta({ description: 'A log position, such as 1234, or a time, such as 2026-05-01T00:00:00Z.' });

/** `GET /admin-panel/audit/state/{resource_type}/{resource_id}/`: a resource replayed up to a point, and compared with another. */
export const ResourceStateQuery = z
  .object({
    as_of: LogPoint.optional().meta({ description: 'Where to stop replaying; now when absent.' }),
    compare_to: LogPoint.optional().meta({ description: 'A second point whose state the changes are counted from.' }),
  })
  .strict();
export type ResourceStateQuery = z.output<typeof ResourceStateQuery>;

/** A resource's state as its events folded up to a point left it, secrets left out. */
export const ResourceSnapshot = z
  .object({
    position: z.number().int().nullable().meta({ description: 'The last event folded in; null when none had happened yet.' }),
    timestamp: timestamp.nullable().meta({ description: 'When that event happened.' }),
    version: z.number().int().meta({ description: 'How many of the stream’s events were folded in.' }),
    state: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ResourceSnapshot' });
export type ResourceSnapshot = z.output<typeof ResourceSnapshot>;

/** One field that differs between two snapshots: a dotted path, its value at compare_to (`from`) and at as_of (`to`). */
export const StateChange = z
  .object({ path: z.string(), from: z.unknown().optional(), to: z.unknown().optional() })
  .meta({ id: 'StateChange' });
export type StateChange = z.output<typeof StateChange>;

export const ResourceState = z
  .object({
    resource: z.string(),
    resource_id: z.string(),
    as_of: ResourceSnapshot,
    compare_to: ResourceSnapshot.nullable(),
    changes: z.array(StateChange).meta({ description: 'From compare_to to as_of; empty without compare_to.' }),
  })
  .meta({ id: 'ResourceState' });
export type ResourceState = z.output<typeof ResourceState>;

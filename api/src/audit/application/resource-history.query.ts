import { Injectable } from '@nestjs/common';
import type { ResourceSnapshot, ResourceState, ResourceStateQuery, StateChange } from '@meshwork/contracts';
import { BillingHistory } from '../../billing';
import { CatalogHistory } from '../../catalog';
import { IdentityHistory } from '../../identity';
import { NetworksHistory } from '../../networks';
import type { AggregateHistory } from '../../platform/domain/aggregate-history';
import { notFound } from '../../platform/domain/errors';
import { eventsUpTo } from '../../platform/event-store/log-point';
import { auditDetails } from '../projections/audit-details';

/**
 * Replay for auditors (issue 15 §2): any resource as its stream, folded by its own decider,
 * stood at a log position or a time, with secrets left out, and what changed between two
 * such points. Computed on request from the log, so it is never stale and stores nothing.
 */
@Injectable()
export class ResourceHistory {
  private readonly aggregates: ReadonlyMap<string, AggregateHistory>;

  // Each context hands over its aggregates' replay alone (its …History), never its repositories.
  constructor(identity: IdentityHistory, billing: BillingHistory, catalog: CatalogHistory, networks: NetworksHistory) {
    const all = [identity, billing, catalog, networks].flatMap((context) => context.aggregates);
    this.aggregates = new Map(all.map((aggregate) => [aggregate.category, aggregate]));
  }

  /** The resource types that can be replayed. */
  get resourceTypes(): string[] {
    return [...this.aggregates.keys()];
  }

  async state(resource: string, resourceId: string, query: ResourceStateQuery): Promise<ResourceState> {
    const aggregate = this.aggregates.get(resource);
    if (!aggregate) throw notFound(`Resources of type '${resource}' cannot be replayed.`);
    const asOf = await this.snapshot(aggregate, resourceId, query.as_of);
    if (asOf.version === 0 && query.as_of === undefined) throw notFound();
    const compareTo = query.compare_to === undefined ? null : await this.snapshot(aggregate, resourceId, query.compare_to);
    return {
      resource,
      resource_id: resourceId,
      as_of: asOf,
      compare_to: compareTo,
      changes: compareTo ? changesBetween(compareTo.state, asOf.state) : [],
    };
  }

  private async snapshot(aggregate: AggregateHistory, id: string, point: string | undefined): Promise<ResourceSnapshot> {
    const { state, last } = await aggregate.replay(id, point === undefined ? () => true : eventsUpTo(point));
    return {
      position: last?.position ?? null,
      timestamp: last?.occurredAt.toISOString() ?? null,
      version: last?.streamVersion ?? 0,
      state: auditDetails(state),
    };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fields that differ between two states, by dotted path: objects are compared field by field, anything else (lists too) whole. */
export function changesBetween(from: unknown, to: unknown, path = ''): StateChange[] {
  if (isRecord(from) && isRecord(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((key) => changesBetween(from[key], to[key], path ? `${path}.${key}` : key));
  }
  if (JSON.stringify(from) === JSON.stringify(to)) return [];
  return [{ path, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }];
}

import type { RecordedEvent } from '@meshwork/contracts';

/**
 * An aggregate's streams as auditors read them: folded by the aggregate's own decider up to a
 * point of their history. Read-only: there is no way to append through it.
 */
export interface AggregateHistory {
  /** The stream category: the aggregate's streams are `<category>-<id>`. */
  readonly category: string;
  replay(id: string, included: (event: RecordedEvent) => boolean): Promise<{ state: unknown; last: RecordedEvent | null }>;
}

/** A repository's replay alone, so what a context hands the audit context cannot load or execute. */
export function historyOf(repository: AggregateHistory): AggregateHistory {
  return { category: repository.category, replay: (id, included) => repository.replay(id, included) };
}

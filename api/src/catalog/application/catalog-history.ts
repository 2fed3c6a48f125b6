import { Injectable } from '@nestjs/common';
import { type AggregateHistory, historyOf } from '../../platform/domain/aggregate-history';
import { CatalogContext } from './catalog-context';

/** The catalog's aggregates as the audit context replays them, without the write side. */
@Injectable()
export class CatalogHistory {
  readonly aggregates: readonly AggregateHistory[];

  constructor(catalog: CatalogContext) {
    this.aggregates = [catalog.models, catalog.releases, catalog.downloads].map(historyOf);
  }
}

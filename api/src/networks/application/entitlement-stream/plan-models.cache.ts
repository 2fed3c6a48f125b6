import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntitledModel } from '@meshwork/contracts';
import { CATALOG_PROJECTION, openModelsOf } from '../../../catalog';
import { DATABASE, type Database } from '../../../platform/database/database';

interface Entry {
  /** The catalog read model's checkpoint read before loading: the entry reflects at least this position. */
  loadedAt: number;
  models: EntitledModel[];
}

/**
 * The models each plan opens, with their manifests' SHA-256, kept between documents: the
 * stream builds thousands at once and the models change rarely. An entry is trusted only
 * while the log tail (EntitlementStreamTail) has seen every event the catalog read model has
 * applied (`seenUpTo`) and none of them changed open models after the entry was loaded
 * (`lastModelChange`). Validity is decided from positions, not by deleting entries when an
 * event passes, so a load racing with the catalog projection cannot leave a stale entry.
 */
@Injectable()
export class PlanModelsCache {
  private readonly entries = new Map<string, Entry>();
  /** Until the tail starts nothing is known, so nothing is trusted. */
  private seenUpTo = -1;
  private lastModelChange = Number.POSITIVE_INFINITY;

  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** The tail has read the log up to `position`; `modelChangeAt` is the last event in it that changed open models, if any. */
  saw(position: number, modelChangeAt?: number): void {
    this.seenUpTo = Math.max(this.seenUpTo, position);
    if (modelChangeAt !== undefined) this.lastModelChange = modelChangeAt;
  }

  /** The tail starts at `head` without knowing what came before it: entries must be loaded after it. */
  startAt(head: number): void {
    this.seenUpTo = head;
    this.lastModelChange = head;
  }

  /** The tail stopped following the log (nobody is connected): trust nothing until it starts again. */
  forget(): void {
    this.seenUpTo = -1;
    this.entries.clear();
  }

  /** The open models of each plan, loaded in one query for the plans not cached. */
  async of(planIds: readonly string[]): Promise<Map<string, EntitledModel[]>> {
    const position = await this.catalogPosition();
    const trusted = this.seenUpTo >= position;
    const missing = planIds.filter((id) => {
      const entry = this.entries.get(id);
      return !trusted || !entry || entry.loadedAt < this.lastModelChange;
    });
    if (missing.length > 0) {
      const open = await openModelsOf(this.database, missing);
      for (const planId of missing) {
        const models = open
          .filter((m) => m.allowedPlans.includes(planId))
          .map((m) => ({ name: m.name, version: m.version, manifest_sha256: sha256(JSON.stringify(m.manifest)) }));
        this.entries.set(planId, { loadedAt: position, models });
      }
    }
    return new Map(planIds.map((id) => [id, this.entries.get(id)!.models]));
  }

  private async catalogPosition(): Promise<number> {
    const { rows } = await this.database.pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
      CATALOG_PROJECTION,
    ]);
    return Number(rows[0]?.position ?? 0);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

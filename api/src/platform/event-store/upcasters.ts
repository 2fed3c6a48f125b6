/**
 * Stored event types are schema: an old event is never rewritten. When a type's data
 * shape changes, register an upcaster from the old schema version to the next one; reads
 * apply the chain so every consumer sees only the newest shape.
 */
export type Upcaster = (data: unknown) => unknown;

export class Upcasters {
  private readonly steps = new Map<string, Upcaster>();
  private readonly latest = new Map<string, number>();

  /** Registers the step from `fromVersion` to `fromVersion + 1` for `type`. */
  register(type: string, fromVersion: number, upcast: Upcaster): this {
    this.steps.set(`${type}@${fromVersion}`, upcast);
    this.latest.set(type, Math.max(this.latest.get(type) ?? 1, fromVersion + 1));
    return this;
  }

  /** Brings data of `type` at `schemaVersion` to the newest version known. */
  upcast(type: string, schemaVersion: number, data: unknown): { schemaVersion: number; data: unknown } {
    let version = schemaVersion;
    let current = data;
    for (let step = this.steps.get(`${type}@${version}`); step; step = this.steps.get(`${type}@${version}`)) {
      current = step(current);
      version += 1;
    }
    return { schemaVersion: version, data: current };
  }

  /** The version new events of `type` are written at (1 until an upcaster raises it). */
  latestVersion(type: string): number {
    return this.latest.get(type) ?? 1;
  }
}

/**
 * The upcasters every store and writer in the process uses. A context registers its steps
 * from a module its decider and projection both import, so any process that reads its
 * events (api, projections worker, rebuild) has them; platform itself names no context.
 */
export const EVENT_UPCASTERS = new Upcasters();

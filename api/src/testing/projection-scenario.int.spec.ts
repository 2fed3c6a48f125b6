import type { PoolClient } from 'pg';
import type { Projection } from '../platform/projections/projection';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario } from './projection-scenario';

/** A read model of things, announcing each on `things`, and refusing a poisoned one. */
const things: Projection = {
  name: 'things',
  handles: ['ThingHappened'],
  async createTables(db: PoolClient, schema: string) {
    await db.query(`CREATE TABLE ${schema}.things (n int PRIMARY KEY)`);
  },
  async apply(db: PoolClient, schema: string, event) {
    const { n } = event.data as { n: number };
    if (n < 0) throw new Error(`negative ${n}`);
    await db.query(`INSERT INTO ${schema}.things (n) VALUES ($1)`, [n]);
    await db.query(`SELECT pg_notify('things', $1)`, [String(n)]);
  },
};
const thing = (n: number) => ({ streamId: `thing-${n}`, events: [anEvent({ data: { n } })] });

describe('projectionScenario', () => {
  const scenario = projectionScenario(() => things, { listen: 'things' });

  it('applies given then when events, and records only what the when events announced', async () => {
    const then = await scenario.given(thing(1), thing(2)).when(thing(3), thing(4));
    expect(await then.rows(`SELECT n FROM ${scenario.schema}.things ORDER BY n`)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(then.announced).toEqual(['3', '4']);
    const next = await scenario.given().when(thing(5));
    expect(next.announced).toEqual(['5']);
  });

  it('fails with the projection’s error when it cannot apply an event', async () => {
    await expect(scenario.given(thing(1)).when(thing(-1))).rejects.toThrow(/things could not apply ThingHappened at 2: negative -1/);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazyZodResolver } from './lazy-zod-resolver';

const Schema = z.object({ email: z.email('Enter a valid email address') });
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazyZodResolver', () => {
  it('checks with the schema once it has loaded: values through, errors by field', async () => {
    const resolver = lazyZodResolver(async () => Schema);
    expect(await resolver({ email: 'ada@example.com' }, undefined, options)).toEqual({ values: { email: 'ada@example.com' }, errors: {} });
    const failed = await resolver({ email: 'not an email' }, undefined, options);
    expect(failed.values).toEqual({});
    expect(failed.errors.email?.message).toBe('Enter a valid email address');
  });

  it('loads the schema only when asked to, once, and again at the next check after a failed load', async () => {
    let loads = 0;
    const resolver = lazyZodResolver(async () => {
      loads += 1;
      if (loads === 1) throw new Error('offline');
      return Schema;
    });
    expect(loads).toBe(0);
    resolver.preload();
    resolver.preload();
    expect(loads).toBe(1);
    await new Promise((resolve) => setTimeout(resolve));
    expect((await resolver({ email: 'ada@example.com' }, undefined, options)).errors).toEqual({});
    await resolver({ email: 'ada@example.com' }, undefined, options);
    expect(loads).toBe(2);
  });
});

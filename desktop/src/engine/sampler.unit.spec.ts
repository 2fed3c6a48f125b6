import { argmax, createSampler, penaliseRepeats, seededRandom } from './sampler';

const logits = Float32Array.from([0.5, 3, 2.9, -1, 1]);

describe('sampling', () => {
  it('greedy (temperature 0, the default) takes the most likely token', () => {
    expect(createSampler()(logits)).toBe(1);
    expect(createSampler({ temperature: 0, seed: 5 })(logits)).toBe(1);
    expect(argmax(Float32Array.from([-3, -2, -7]))).toBe(1);
  });

  it('a seed repeats the same draws; another seed draws differently', () => {
    const draw = (seed: number) => {
      const sample = createSampler({ temperature: 1, seed });
      return Array.from({ length: 40 }, () => sample(logits));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('top-k 2 only ever draws the two most likely tokens', () => {
    const sample = createSampler({ temperature: 2, topK: 2, seed: 1 });
    const drawn = new Set(Array.from({ length: 300 }, () => sample(logits)));
    expect([...drawn].sort()).toEqual([1, 2]);
  });

  it('top-p keeps the smallest set reaching p: with p small, only the best', () => {
    const sample = createSampler({ temperature: 1, topP: 0.05, seed: 3 });
    expect(new Set(Array.from({ length: 100 }, () => sample(logits)))).toEqual(new Set([1]));
  });

  it('draws follow the softmax: token 1 about as often as token 2, token 3 rarely', () => {
    const sample = createSampler({ temperature: 1, seed: 11 });
    const counts = new Map<number, number>();
    for (let i = 0; i < 20_000; i++) {
      const id = sample(logits);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const exps = [...logits].map(Math.exp);
    const total = exps.reduce((a, b) => a + b, 0);
    for (const [id, e] of exps.entries()) expect(Math.abs((counts.get(id) ?? 0) / 20_000 - e / total)).toBeLessThan(0.015);
  });

  it('refuses settings outside their ranges', () => {
    expect(() => createSampler({ temperature: -1 })).toThrow('temperature must be between 0 and 5');
    expect(() => createSampler({ topP: 0 })).toThrow('top_p must be above 0 and at most 1');
    expect(() => createSampler({ topK: 1.5 })).toThrow('top_k must be a whole number');
    expect(() => createSampler({ repeatPenalty: 0 })).toThrow('repeat_penalty must be above 0 and at most 10');
    expect(() => createSampler({ repeatPenalty: Number.NaN })).toThrow('repeat_penalty must be above 0');
    expect(() => createSampler({ repeatLastN: -1 })).toThrow('repeat_last_n must be a whole number, 0 or more');
  });

  it('the repeat penalty divides a repeated positive logit and multiplies a negative one, once per token, leaving the input as it was', () => {
    const penalised = penaliseRepeats(logits, [1, 3, 1, 1], 2, 64);
    const float32 = (values: number[]) => values.map(Math.fround);
    expect([...penalised]).toEqual(float32([0.5, 1.5, 2.9, -2, 1]));
    expect([...logits]).toEqual(float32([0.5, 3, 2.9, -1, 1]));
    // Only the last N picks count; penalty 1 or an empty window changes nothing.
    expect([...penaliseRepeats(logits, [1, 3], 2, 1)]).toEqual(float32([0.5, 3, 2.9, -2, 1]));
    expect(penaliseRepeats(logits, [1], 1, 64)).toBe(logits);
    expect(penaliseRepeats(logits, [1], 2, 0)).toBe(logits);
  });

  it('greedy decoding with a repeat penalty moves off a token it just picked, and back once it leaves the window', () => {
    const sample = createSampler({ temperature: 0, repeatPenalty: 1.1, repeatLastN: 2 });
    expect(sample(logits, [])).toBe(1);
    expect(sample(logits, [1])).toBe(2); // 3 / 1.1 = 2.73 < 2.9
    expect(sample(logits, [1, 2])).toBe(1); // 3 / 1.1 = 2.73 > 2.9 / 1.1 = 2.64
    expect(sample(logits, [1, 4, 4])).toBe(1); // token 1 is out of the last 2
    expect(createSampler()(logits, [1, 1, 1])).toBe(1); // no penalty unless asked
  });

  it('the seeded generator stays in [0, 1)', () => {
    const random = seededRandom(42);
    for (let i = 0; i < 1000; i++) {
      const value = random();
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

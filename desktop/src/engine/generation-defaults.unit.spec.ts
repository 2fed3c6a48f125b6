import { FALLBACK_DEFAULTS, generationDefaults, withDefaults } from './generation-defaults';

describe('generation defaults', () => {
  it('a package that states nothing answers at temperature 0.7, top-p 0.9, repeat penalty 1.1 and 512 tokens', () => {
    expect(generationDefaults({ contextLength: 8192 })).toEqual({
      temperature: 0.7,
      topP: 0.9,
      topK: 0,
      repeatPenalty: 1.1,
      repeatLastN: 64,
      maxTokens: 512,
    });
    expect(FALLBACK_DEFAULTS.maxTokens).toBe(512);
  });

  it('the package’s own sampling wins where it states it, and the rest falls back', () => {
    const defaults = generationDefaults({ contextLength: 8192, generation: { temperature: 0.2, topK: 40, repeatPenalty: 1 } });
    expect(defaults).toEqual({ temperature: 0.2, topP: 0.9, topK: 40, repeatPenalty: 1, repeatLastN: 64, maxTokens: 512 });
  });

  it('the token limit leaves a short context room for the prompt: half of it at most', () => {
    expect(generationDefaults({ contextLength: 64 }).maxTokens).toBe(32);
    expect(generationDefaults({ contextLength: 1 }).maxTokens).toBe(1);
  });

  it('a request’s own settings override the defaults; what it leaves undefined takes them', () => {
    const defaults = generationDefaults({ contextLength: 8192 });
    expect(withDefaults({ temperature: 0, maxTokens: 3, topP: undefined, seed: 7 }, defaults)).toEqual({
      ...defaults,
      temperature: 0,
      maxTokens: 3,
      seed: 7,
    });
  });
});

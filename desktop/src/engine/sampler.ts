/**
 * Picks the next token from logits: greedy when the temperature is 0 (the default), otherwise
 * temperature, top-k and top-p (nucleus) sampling from a seedable generator, so a seed makes an
 * answer reproducible. A repeat penalty first makes the tokens of the last few picks less
 * likely, as llama.cpp's does, so a small model falls out of a loop.
 */

export interface SamplingOptions {
  /** 0 (the default) picks the most likely token every time. */
  temperature?: number;
  /** Keep only the k most likely tokens (0 or unset: all). */
  topK?: number;
  /** Keep the most likely tokens whose probabilities add up to p (1 or unset: all). */
  topP?: number;
  seed?: number;
  /** Divides a positive logit (multiplies a negative one) of each token among the last `repeatLastN` picks; 1 or unset: none. */
  repeatPenalty?: number;
  /** How many of the latest picks the penalty looks back over (64 unless set; 0: none). */
  repeatLastN?: number;
}

/** Picks a token from the logits, given the tokens picked so far (the repeat penalty's window). */
export type Sampler = (logits: Float32Array, picked?: readonly number[]) => number;

const REPEAT_LAST_N = 64;

/** mulberry32: small, fast and good enough to draw tokens; seeded, it repeats exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function argmax(logits: Float32Array): number {
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i;
  return best;
}

// Tokens this far below the best (after temperature) have a probability under e^-30 ≈ 1e-13:
// leaving them out changes nothing and spares sorting the whole vocabulary every token.
const NEGLIGIBLE = 30;

export function validateSampling(options: SamplingOptions): void {
  const { temperature = 0, topK = 0, topP = 1, repeatPenalty = 1, repeatLastN = REPEAT_LAST_N } = options;
  if (!(Number.isFinite(temperature) && temperature >= 0 && temperature <= 5)) throw new RangeError('temperature must be between 0 and 5');
  if (!(Number.isInteger(topK) && topK >= 0)) throw new RangeError('top_k must be a whole number, 0 or more');
  if (!(Number.isFinite(topP) && topP > 0 && topP <= 1)) throw new RangeError('top_p must be above 0 and at most 1');
  if (!(Number.isFinite(repeatPenalty) && repeatPenalty > 0 && repeatPenalty <= 10))
    throw new RangeError('repeat_penalty must be above 0 and at most 10');
  if (!(Number.isInteger(repeatLastN) && repeatLastN >= 0)) throw new RangeError('repeat_last_n must be a whole number, 0 or more');
}

/** The logits with each token among the last `lastN` picks penalised once; the input is left as it was. */
export function penaliseRepeats(logits: Float32Array, picked: readonly number[], penalty: number, lastN: number): Float32Array {
  if (penalty === 1 || lastN === 0 || picked.length === 0) return logits;
  const out = Float32Array.from(logits);
  for (const id of new Set(picked.slice(-lastN))) {
    const logit = out[id];
    if (logit !== undefined) out[id] = logit > 0 ? logit / penalty : logit * penalty;
  }
  return out;
}

export function createSampler(options: SamplingOptions = {}): Sampler {
  validateSampling(options);
  const { temperature = 0, topK = 0, topP = 1, repeatPenalty = 1, repeatLastN = REPEAT_LAST_N } = options;
  const pick = temperature === 0 ? argmax : drawer(temperature, topK, topP, options.seed);
  return (logits, picked = []) => pick(penaliseRepeats(logits, picked, repeatPenalty, repeatLastN));
}

function drawer(temperature: number, topK: number, topP: number, seed: number | undefined): (logits: Float32Array) => number {
  const random = seed === undefined ? Math.random : seededRandom(seed);
  return (logits) => {
    const best = logits[argmax(logits)]! / temperature;
    const candidates: { id: number; weight: number }[] = [];
    for (let id = 0; id < logits.length; id++) {
      const scaled = logits[id]! / temperature;
      if (scaled >= best - NEGLIGIBLE) candidates.push({ id, weight: Math.exp(scaled - best) });
    }
    candidates.sort((a, b) => b.weight - a.weight || a.id - b.id);
    if (topK > 0) candidates.length = Math.min(candidates.length, topK);
    let total = candidates.reduce((sum, c) => sum + c.weight, 0);
    if (topP < 1) {
      let kept = 0;
      let mass = 0;
      while (kept < candidates.length && mass < topP * total) mass += candidates[kept++]!.weight;
      candidates.length = kept;
      total = mass;
    }
    let draw = random() * total;
    for (const candidate of candidates) {
      draw -= candidate.weight;
      if (draw < 0) return candidate.id;
    }
    return candidates[candidates.length - 1]!.id;
  };
}

/**
 * The generation loop: prefill the prompt, then decode one token at a time, streaming text as
 * it becomes whole, until a stop token, a stop sequence, the token limit, the context length
 * or cancellation.
 */
import { ContextLengthError } from './errors';
import { createSampler, type SamplingOptions } from './sampler';

/** A model that continues from what it has seen: one process, or blocks across devices. */
export interface ForwardPass {
  readonly contextLength: number;
  /** Positions already seen. */
  readonly length: number;
  /** Runs new positions; answers the last position's logits. */
  forward(ids: readonly number[]): Promise<Float32Array>;
  /** Forgets everything from `length` on. */
  truncate(length: number): void;
}

/** Turns ids into text, holding back bytes of a character split across tokens. */
export interface TextStream {
  push(id: number): string;
  flush(): string;
}

export interface GenerateOptions extends SamplingOptions {
  maxTokens?: number;
  /** Text that ends the answer; it is not part of the answer. */
  stop?: readonly string[];
  /** Token ids that end the answer (end of turn, end of text). */
  stopTokens: readonly number[];
  signal?: AbortSignal;
  onText?: (text: string) => void;
}

export type FinishReason = 'stop' | 'length' | 'cancelled';

export interface Generation {
  tokens: number[];
  text: string;
  finishReason: FinishReason;
  promptTokens: number;
  prefillMs: number;
  decodeMs: number;
}

/** The longest end of `text` that starts one of `stops`: it may yet become a stop sequence. */
function heldBack(text: string, stops: readonly string[]): number {
  let longest = 0;
  for (const stop of stops) {
    for (let n = Math.min(stop.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(stop.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}

export async function generate(
  model: ForwardPass,
  decoder: TextStream,
  prompt: readonly number[],
  options: GenerateOptions,
): Promise<Generation> {
  if (prompt.length === 0) throw new RangeError('The prompt is empty');
  if (model.length + prompt.length >= model.contextLength)
    throw new ContextLengthError(model.length + prompt.length + 1, model.contextLength);
  const room = model.contextLength - model.length - prompt.length;
  const maxTokens = Math.min(options.maxTokens ?? room, room);
  if (!(Number.isInteger(maxTokens) && maxTokens > 0)) throw new RangeError('max_tokens must be a whole number above 0');
  const sample = createSampler(options);
  const stops = (options.stop ?? []).filter((s) => s.length > 0);
  const tokens: number[] = [];
  let text = '';
  let pending = '';
  const emit = (piece: string) => {
    if (!piece) return;
    text += piece;
    options.onText?.(piece);
  };

  const started = performance.now();
  let logits = await model.forward(prompt);
  const prefillMs = performance.now() - started;
  let finishReason: FinishReason = 'length';
  let sequenceStopped = false;
  while (tokens.length < maxTokens) {
    if (options.signal?.aborted) {
      finishReason = 'cancelled';
      break;
    }
    const id = sample(logits, tokens);
    if (options.stopTokens.includes(id)) {
      finishReason = 'stop';
      break;
    }
    tokens.push(id);
    pending += decoder.push(id);
    const found = stops.map((s) => pending.indexOf(s)).filter((at) => at >= 0);
    if (found.length > 0) {
      emit(pending.slice(0, Math.min(...found)));
      finishReason = 'stop';
      sequenceStopped = true;
      break;
    }
    const keep = heldBack(pending, stops);
    emit(pending.slice(0, pending.length - keep));
    pending = pending.slice(pending.length - keep);
    if (tokens.length < maxTokens) logits = await model.forward([id]);
  }
  // Text held back for a stop sequence that never came is part of the answer.
  if (!sequenceStopped) emit(pending + decoder.flush());
  return { tokens, text, finishReason, promptTokens: prompt.length, prefillMs, decodeMs: performance.now() - started - prefillMs };
}

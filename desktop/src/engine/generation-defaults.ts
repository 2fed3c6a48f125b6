/**
 * What a host answers with where a request sets nothing: the package's own sampling (its
 * authors', from the GGUF) where it states it, else general defaults; and always a token limit,
 * so an answer that loops stops long before the context's end.
 */
import type { ModelPackageManifest } from '@meshwork/contracts';

export interface Defaults {
  temperature: number;
  topP: number;
  topK: number;
  repeatPenalty: number;
  repeatLastN: number;
  maxTokens: number;
}

/**
 * Where the package is silent. Temperature 0.7 and top-p 0.9 are the usual chat settings; the
 * repeat penalty is llama.cpp's long-standing 1.1 over the last 64 tokens (Ollama's today); 512
 * tokens is a long answer for a chat, and a loop's cost at most.
 */
export const FALLBACK_DEFAULTS: Defaults = { temperature: 0.7, topP: 0.9, topK: 0, repeatPenalty: 1.1, repeatLastN: 64, maxTokens: 512 };

export function generationDefaults(manifest: Pick<ModelPackageManifest, 'generation' | 'contextLength'>): Defaults {
  const stated = manifest.generation ?? {};
  const pick = <K extends keyof typeof stated>(key: K) => stated[key] ?? FALLBACK_DEFAULTS[key];
  return {
    temperature: pick('temperature'),
    topP: pick('topP'),
    topK: pick('topK'),
    repeatPenalty: pick('repeatPenalty'),
    repeatLastN: pick('repeatLastN'),
    // Half the context at most, so a long default never leaves the prompt no room.
    maxTokens: Math.max(1, Math.min(FALLBACK_DEFAULTS.maxTokens, Math.floor(manifest.contextLength / 2))),
  };
}

/** A request's settings over the defaults: a setting left undefined takes the default. */
export function withDefaults<T extends Partial<Defaults>>(request: T, defaults: Defaults): T & Defaults {
  const chosen = Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined));
  return { ...defaults, ...chosen } as T & Defaults;
}

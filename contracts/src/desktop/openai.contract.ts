import { z } from 'zod';

/**
 * The host's OpenAI-compatible api (issue 14, section 5): the subset of OpenAI's Chat
 * Completions request a local model can honour. Unknown fields pass (clients send many); fields
 * it cannot honour (several choices, tools, images) are refused by name, never ignored silently.
 */

const textPart = z.object({ type: z.literal('text'), text: z.string().max(1_000_000) });

export const ChatCompletionMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string().max(1_000_000), z.array(textPart).max(100)]).nullable(),
  name: z.string().max(64).optional(),
});
export type ChatCompletionMessage = z.output<typeof ChatCompletionMessage>;

const count = z.number().int().min(1).max(1_000_000);

export const ChatCompletionRequest = z
  .looseObject({
    model: z.string().min(1, 'model is required').max(100),
    messages: z.array(ChatCompletionMessage).min(1, 'messages must hold at least one message').max(1000),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
    max_tokens: count.nullish(),
    max_completion_tokens: count.nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().gt(0).max(1).nullish(),
    /** Not OpenAI's, but llama.cpp's and vLLM's servers take it: clients built for them send it. */
    top_k: z.number().int().min(0).max(100_000).nullish(),
    /**
     * llama.cpp's: divides the logit of each token among the answer's last 64 (1: no penalty).
     * The model's default, else 1.1, when left out.
     */
    repeat_penalty: z.number().gt(0).max(10).nullish(),
    seed: z.number().int().nullish(),
    stop: z.union([z.string().max(200), z.array(z.string().max(200)).max(4)]).nullish(),
    n: z.literal(1, { error: 'Only n = 1 is supported' }).nullish(),
    user: z.string().max(256).optional(),
  })
  .superRefine((request, context) => {
    for (const field of ['tools', 'functions'] as const) {
      const value = request[field];
      if (Array.isArray(value) && value.length > 0)
        context.addIssue({ code: 'custom', path: [field], message: `${field} are not supported by this host` });
    }
  });
export type ChatCompletionRequest = z.output<typeof ChatCompletionRequest>;

/** OpenAI's error body: what its clients read. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The api keys the host's UI lists: never the key itself, which is shown once when created. */
export const HostApiKey = z.object({ id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string() });
export type HostApiKey = z.output<typeof HostApiKey>;

/** GET /host/api-keys: the keys (never a key itself), the api's port and the base URLs clients use. */
export const HostApiKeys = z.object({ keys: z.array(HostApiKey), port: z.number().int(), base_urls: z.array(z.string()) });
export type HostApiKeys = z.output<typeof HostApiKeys>;

export const HostApiKeyCreate = z.object({ name: z.string().trim().min(1, 'Name is required').max(100) });
export const HostApiKeyRevoke = z.object({ id: z.string().min(1).max(100) });
export const CreatedHostApiKey = HostApiKey.extend({ key: z.string() });
export type CreatedHostApiKey = z.output<typeof CreatedHostApiKey>;

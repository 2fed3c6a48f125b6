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

/** What a chat and a completion request share: the model and how the answer is sampled and sent. */
const answerSettings = {
  model: z.string().min(1, 'model is required').max(100),
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
};

export const ChatCompletionRequest = z
  .looseObject({
    ...answerSettings,
    messages: z.array(ChatCompletionMessage).min(1, 'messages must hold at least one message').max(1000),
  })
  .superRefine((request, context) => {
    for (const field of ['tools', 'functions'] as const) {
      const value = request[field];
      if (Array.isArray(value) && value.length > 0)
        context.addIssue({ code: 'custom', path: [field], message: `${field} are not supported by this host` });
    }
  });
export type ChatCompletionRequest = z.output<typeof ChatCompletionRequest>;

/**
 * OpenAI's Completions request (POST /v1/completions): one raw prompt continued as written, no
 * chat template, which is how a base model (a package without a template) is asked. Sampling
 * settings as for chat; what a local model cannot honour (echo, suffix, best_of, logprobs) is
 * refused by name.
 */
export const CompletionRequest = z
  .looseObject({
    ...answerSettings,
    prompt: z.union([z.string().max(1_000_000), z.array(z.string().max(1_000_000)).length(1, 'Only one prompt per request is supported')]),
  })
  .superRefine((request, context) => {
    const refused = {
      echo: request.echo === true,
      suffix: Boolean(request.suffix),
      best_of: (request.best_of ?? 1) !== 1,
      logprobs: request.logprobs != null,
    };
    for (const [field, sent] of Object.entries(refused))
      if (sent) context.addIssue({ code: 'custom', path: [field], message: `${field} is not supported by this host` });
  });
export type CompletionRequest = z.output<typeof CompletionRequest>;

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

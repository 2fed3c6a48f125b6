import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { ChatCompletionRequest, CompletionRequest, type OpenAiErrorBody } from '@meshwork/contracts';
import type { z } from 'zod';
import { ContextLengthError } from '../../engine/errors';
import type { Generation } from '../../engine/generate';
import type { ApiKeyStore } from './api-keys';
import { QueueFull } from './fair-queue';
import { type ModelServer, ServeRefusal } from './model-server';
import { NetworkUnavailable } from '../network/pipeline';

const MAX_BODY_BYTES = 4 * 1024 * 1024;

class OpenAiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

const body = (error: OpenAiError): OpenAiErrorBody => ({
  error: { message: error.message, type: error.type, param: error.param, code: error.code },
});

function asOpenAiError(error: unknown): OpenAiError {
  if (error instanceof OpenAiError) return error;
  if (error instanceof ServeRefusal)
    return new OpenAiError(error.status, error.message, error.status === 404 ? 'invalid_request_error' : 'server_error', error.code);
  if (error instanceof ContextLengthError)
    return new OpenAiError(400, error.message, 'invalid_request_error', 'context_length_exceeded', 'messages');
  // The network's devices cannot run the model now (too little memory among them, the plan stopped): the planner's words.
  if (error instanceof NetworkUnavailable) return new OpenAiError(503, error.message, 'server_error', 'service_unavailable');
  if (error instanceof QueueFull) return new OpenAiError(429, `${error.message}; try again shortly.`, 'requests', 'rate_limit_exceeded');
  return new OpenAiError(500, `The host could not answer: ${(error as Error).message}`, 'server_error');
}

/**
 * The host's OpenAI-compatible api on the LAN: GET /v1/models, POST /v1/chat/completions and
 * POST /v1/completions (a raw prompt, as a base model is asked), streamed as server-sent chunks
 * or answered whole, for any client holding one of the host's api keys. Errors use OpenAI's
 * body, which its clients read. Browsers on the LAN may call it (CORS): keys are bearer tokens,
 * never cookies, so another site cannot borrow them.
 */
export class OpenAiServer {
  private readonly server: Server;

  constructor(
    private readonly models: ModelServer,
    private readonly keys: ApiKeyStore,
  ) {
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  async listen(port: number, address: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, address, resolve);
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Where clients on the LAN reach it: each IPv4 address of this machine when bound to all of them. */
  baseUrls(): string[] {
    const bound = (this.server.address() as AddressInfo).address;
    const addresses =
      bound === '0.0.0.0' || bound === '::'
        ? Object.values(networkInterfaces())
            .flat()
            .filter((i) => i !== undefined && i.family === 'IPv4' && !i.internal)
            .map((i) => i!.address)
        : [bound];
    return (addresses.length > 0 ? addresses : ['127.0.0.1']).map((address) => `http://${address}:${this.port}/v1`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('Access-Control-Allow-Origin', '*');
    try {
      if (request.method === 'OPTIONS') {
        response.writeHead(204, {
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
          'Access-Control-Allow-Methods': 'GET, POST',
        });
        return void response.end();
      }
      response.setHeader('Access-Control-Expose-Headers', CHAT_FORMAT_HEADER);
      const client = await this.authenticate(request);
      const path = new URL(request.url ?? '/', 'http://host').pathname.replace(/\/+$/, '');
      if (request.method === 'GET' && path === '/v1/models') return json(response, 200, { object: 'list', data: this.modelList() });
      const one = /^\/v1\/models\/([^/]+)$/.exec(path);
      if (request.method === 'GET' && one) {
        const model = this.modelList().find((m) => m.id === decodeURIComponent(one[1]!));
        if (!model)
          throw new OpenAiError(
            404,
            `The model "${decodeURIComponent(one[1]!)}" does not exist`,
            'invalid_request_error',
            'model_not_found',
          );
        return json(response, 200, model);
      }
      if (request.method === 'POST' && path === '/v1/chat/completions') return await this.answer(client, request, response);
      if (request.method === 'POST' && path === '/v1/completions') return await this.completion(client, request, response);
      throw new OpenAiError(404, `Unknown request URL: ${request.method} ${path}`, 'invalid_request_error', 'unknown_url');
    } catch (error) {
      fail(response, error);
    }
  }

  /**
   * Answers one chat completion request for `client`, errors included. The UI's playground
   * comes through here too (as client `ui`), so it shows exactly what LAN clients get.
   */
  async answer(client: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.chat(client, request, response);
    } catch (error) {
      fail(response, error);
    }
  }

  private modelList() {
    return this.models
      .available()
      .map((m) => ({ id: m.name, object: 'model' as const, created: 0, owned_by: 'meshwork', version: m.version }));
  }

  private async authenticate(request: IncomingMessage): Promise<string> {
    const key = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const id = key ? await this.keys.verify(key) : null;
    if (!id)
      throw new OpenAiError(
        401,
        'Incorrect or missing API key. Create one in the Meshwork app, under API keys.',
        'invalid_request_error',
        'invalid_api_key',
      );
    return id;
  }

  private async chat(client: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chat = await parsed(ChatCompletionRequest, request);
    const left = untilClosed(response);
    const id = `chatcmpl-${randomBytes(12).toString('base64url')}`;
    const created = Math.floor(Date.now() / 1000);
    const sampling = samplingOf(chat);
    const chunk = (choices: unknown[], extra: object = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: chat.model, system_fingerprint: null, choices, ...extra })}\n\n`;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      response.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
    };
    const onText = chat.stream
      ? (text: string) => {
          start();
          response.write(chunk([{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }]));
        }
      : () => undefined;

    // A model without a chat template gets the conversation as plain text: the header says so.
    const onFormat = (format: string) => response.setHeader(CHAT_FORMAT_HEADER, format);
    const generation = await this.models.chat(
      client,
      { model: chat.model, messages: chat.messages, sampling, onFormat },
      onText,
      left.signal,
    );
    if (generation.finishReason === 'cancelled') return void response.end();
    const usage = usageOf(generation);
    const finish = generation.finishReason;
    if (!chat.stream) {
      return json(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model: chat.model,
        system_fingerprint: null,
        choices: [
          { index: 0, message: { role: 'assistant', content: generation.text, refusal: null }, logprobs: null, finish_reason: finish },
        ],
        usage,
      });
    }
    start();
    response.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finish }]));
    if (chat.stream_options?.include_usage) response.write(chunk([], { usage }));
    response.end('data: [DONE]\n\n');
  }

  /** A completion (OpenAI's `text_completion`): the prompt continued as written, streamed or whole. */
  private async completion(client: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const completion = await parsed(CompletionRequest, request);
    const left = untilClosed(response);
    const id = `cmpl-${randomBytes(12).toString('base64url')}`;
    const created = Math.floor(Date.now() / 1000);
    const head = { id, object: 'text_completion', created, model: completion.model, system_fingerprint: null };
    const choice = (text: string, finish: string | null) => ({ index: 0, text, logprobs: null, finish_reason: finish });
    const chunk = (value: object) => response.write(`data: ${JSON.stringify({ ...head, ...value })}\n\n`);
    const start = () => {
      if (!response.headersSent)
        response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    };
    const onText = completion.stream
      ? (text: string) => {
          start();
          chunk({ choices: [choice(text, null)] });
        }
      : () => undefined;
    const prompt = typeof completion.prompt === 'string' ? completion.prompt : completion.prompt[0]!;
    const sampling = samplingOf(completion);
    const generation = await this.models.complete(client, { model: completion.model, prompt, sampling }, onText, left.signal);
    if (generation.finishReason === 'cancelled') return void response.end();
    const usage = usageOf(generation);
    if (!completion.stream) return json(response, 200, { ...head, choices: [choice(generation.text, generation.finishReason)], usage });
    start();
    chunk({ choices: [choice('', generation.finishReason)] });
    if (completion.stream_options?.include_usage) chunk({ choices: [], usage });
    response.end('data: [DONE]\n\n');
  }
}

/** The response header naming how a chat was written for the model: 'plain' when it has no chat template. */
const CHAT_FORMAT_HEADER = 'Meshwork-Chat-Format';

/** The request's body as `schema` reads it, or OpenAI's error naming the first field it refuses. */
async function parsed<T>(schema: z.ZodType<T>, request: IncomingMessage): Promise<T> {
  const result = schema.safeParse(await readJson(request));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = issue.path.join('.') || null;
  throw new OpenAiError(400, param ? `${param}: ${issue.message}` : issue.message, 'invalid_request_error', 'invalid_value', param);
}

/** Aborted when the client goes away: its answer stops. */
function untilClosed(response: ServerResponse): AbortController {
  const left = new AbortController();
  response.on('close', () => left.abort(new Error('The client went away')));
  return left;
}

/** What the request leaves out, the model's own defaults fill (ChatEngine), not OpenAI's. */
const samplingOf = (request: ChatCompletionRequest | CompletionRequest) => ({
  maxTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
  temperature: request.temperature ?? undefined,
  topP: request.top_p ?? undefined,
  topK: request.top_k ?? undefined,
  repeatPenalty: request.repeat_penalty ?? undefined,
  seed: request.seed ?? undefined,
  stop: typeof request.stop === 'string' ? [request.stop] : (request.stop ?? undefined),
});

/** OpenAI's error body, or, once a stream has begun, its last event. */
function fail(response: ServerResponse, error: unknown): void {
  const failure = asOpenAiError(error);
  if (!response.headersSent) return json(response, failure.status, body(failure));
  response.end(`data: ${JSON.stringify(body(failure))}\n\n`);
}

const usageOf = (generation: Generation) => ({
  prompt_tokens: generation.promptTokens,
  completion_tokens: generation.tokens.length,
  total_tokens: generation.promptTokens + generation.tokens.length,
});

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(value));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new OpenAiError(413, 'The request is larger than 4 MB', 'invalid_request_error', 'request_too_large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new OpenAiError(400, 'The request body is not valid JSON', 'invalid_request_error', 'invalid_json');
  }
}

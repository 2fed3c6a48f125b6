import { useEffect, useState } from 'react';
import type { ChatCompletionMessage, HostErrorBody, HostRefusalReason, HostState } from '@meshwork/contracts';
import type { Refusal } from './messages';

/**
 * A refusal from the host, in the api's error format: a message and, per field, what is wrong;
 * `reason`, the refusal's code and values for the window to word (refusalText), when it has one.
 */
export class HostError extends Error implements Refusal {
  constructor(
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly reason: HostRefusalReason | null = null,
  ) {
    super(message);
  }
}

/**
 * The host's state, live: the runtime pushes it on every change over server-sent events.
 * `lost` once the stream has been down for a while (EventSource keeps reconnecting meanwhile).
 */
export function useHostState(): { state: HostState | null; lost: boolean } {
  const [state, setState] = useState<HostState | null>(null);
  const [lost, setLost] = useState(false);
  useEffect(() => {
    const events = new EventSource('/host/events');
    let lostTimer: ReturnType<typeof setTimeout> | undefined;
    events.addEventListener('state', (event) => {
      clearTimeout(lostTimer);
      lostTimer = undefined;
      setLost(false);
      setState(JSON.parse((event as MessageEvent<string>).data) as HostState);
    });
    events.onerror = () => {
      lostTimer ??= setTimeout(() => setLost(true), 3000);
    };
    return () => {
      clearTimeout(lostTimer);
      events.close();
    };
  }, []);
  return { state, lost };
}

async function refusalOf(response: Response): Promise<HostError> {
  const body = (await response.json().catch(() => null)) as HostErrorBody | null;
  const reason = body !== null && 'code' in body ? body : null;
  return new HostError(body?.message ?? `The host answered ${response.status}.`, body?.errors ?? {}, reason);
}

export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path);
  if (!response.ok) throw await refusalOf(response);
  return (await response.json()) as T;
}

/** Sends a command to the runtime; its answer, or a HostError. */
export async function command<T = HostState>(path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw await refusalOf(response);
  return (await response.json()) as T;
}

interface ChatChunk {
  choices?: { delta?: { content?: string } }[];
  error?: { message: string };
}

/**
 * Streams a chat answer from the host (the same OpenAI-format chunks the LAN api sends),
 * calling `onText` with each piece. Throws HostError with the host's words when it refuses.
 */
export async function streamChat(
  request: { model: string; messages: ChatCompletionMessage[]; temperature?: number; max_tokens?: number },
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch('/host/chat/completions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...request, stream: true }),
    signal,
  });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => null)) as ChatChunk | null;
    throw new HostError(body?.error?.message ?? `The host answered ${response.status}.`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    const events = buffered.split('\n\n');
    buffered = events.pop() ?? '';
    for (const event of events) {
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data === '' || data === '[DONE]') continue;
      const chunk = JSON.parse(data) as ChatChunk;
      if (chunk.error) throw new HostError(chunk.error.message);
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) onText(text);
    }
  }
}

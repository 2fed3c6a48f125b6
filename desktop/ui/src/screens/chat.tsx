import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { HostState } from '@meshwork/contracts';
import { HostError, streamChat } from '../host-client';
import { useI18n } from '../i18n';
import { servingReasonText } from '../messages';

/** One message of the conversation: the playground sends and shows plain text only. */
interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * A chat with a model on this device, streamed as it is written; Stop ends the answer there.
 * The temperature and the token limit start at the model's own defaults (what the OpenAI api
 * uses too) and may be changed for the next answer; emptied, the host's default applies.
 */
export function ChatScreen({ state }: { state: HostState }) {
  const { t } = useI18n();
  const ready = state.serving.allowed ? state.models.filter((m) => m.allowed && m.status === 'installed') : [];
  const [model, setModel] = useState('');
  const [messages, setMessages] = useState<Turn[]>([]);
  const [draft, setDraft] = useState('');
  // What the person typed; null while they have not, and the model's default shows.
  const [temperatureText, setTemperatureText] = useState<string | null>(null);
  const [maxTokensText, setMaxTokensText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const answering = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = ready.some((m) => m.name === model) ? model : (ready[0]?.name ?? '');
  const defaults = ready.find((m) => m.name === chosen)?.generation ?? null;
  const temperature = temperatureText ?? (defaults ? String(defaults.temperature) : '');
  const maxTokens = maxTokensText ?? (defaults ? String(defaults.max_tokens) : '');
  useEffect(() => () => answering.current?.abort(), []);

  async function send(event: FormEvent) {
    event.preventDefault();
    const text = draft.trim();
    if (!text || !chosen || busy) return;
    const asked: Turn[] = [...messages, { role: 'user', content: text }];
    setMessages([...asked, { role: 'assistant', content: '' }]);
    setDraft('');
    setError(null);
    setBusy(true);
    const abort = new AbortController();
    answering.current = abort;
    let answer = '';
    try {
      // The form checked both fields; an empty one is left to the host's default.
      await streamChat(
        {
          model: chosen,
          messages: asked,
          temperature: temperature === '' ? undefined : Number(temperature),
          max_tokens: maxTokens === '' ? undefined : Number(maxTokens),
        },
        (piece) => {
          answer += piece;
          setMessages([...asked, { role: 'assistant', content: answer }]);
        },
        abort.signal,
      );
    } catch (caught) {
      if (!abort.signal.aborted) {
        setError(caught instanceof HostError ? caught.message : (caught as Error).message);
        if (answer === '') setMessages(asked);
      }
    } finally {
      setBusy(false);
      answering.current = null;
    }
  }

  if (ready.length === 0)
    return (
      <div className="max-w-3xl space-y-4">
        <h1 className="text-2xl font-semibold">{t.chat}</h1>
        <p className="text-slate-600">{state.serving.reason ? servingReasonText(t, state.serving.reason) : t.noChatModel}</p>
      </div>
    );
  return (
    <div className="flex h-[calc(100vh-4rem)] max-w-3xl flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t.chat}</h1>
          <p className="text-sm text-slate-600">{t.chatLead}</p>
        </div>
        <div className="flex items-end gap-2">
          <label className="text-sm">
            <span className="block">{t.model}</span>
            <select className="field" value={chosen} onChange={(e) => setModel(e.target.value)}>
              {ready.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.display_name}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm" title={t.temperatureHint}>
            <span className="block">{t.temperature}</span>
            <input
              className="field w-20"
              form="chat-form"
              type="number"
              min={0}
              max={2}
              step="any"
              value={temperature}
              onChange={(e) => setTemperatureText(e.target.value)}
            />
          </label>
          <label className="text-sm" title={t.maxTokensHint}>
            <span className="block">{t.maxTokens}</span>
            <input
              className="field w-24"
              form="chat-form"
              type="number"
              min={1}
              max={1_000_000}
              step={1}
              value={maxTokens}
              onChange={(e) => setMaxTokensText(e.target.value)}
            />
          </label>
          <button type="button" className="button-quiet" disabled={busy} onClick={() => setMessages([])}>
            {t.newChat}
          </button>
        </div>
      </div>
      <ol className="flex-1 space-y-3 overflow-y-auto" aria-live="polite">
        {messages.map((message, index) => (
          <li
            key={index}
            data-role={message.role}
            className={`rounded-lg p-3 whitespace-pre-wrap ${message.role === 'user' ? 'ms-12 bg-sky-50' : 'me-12 border border-slate-200 bg-white'}`}
          >
            <span className="block text-xs text-slate-500">{message.role === 'user' ? t.you : t.assistant}</span>
            <span data-testid="message-text">{message.content}</span>
          </li>
        ))}
      </ol>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <form id="chat-form" className="flex gap-2" onSubmit={(e) => void send(e)}>
        <label className="sr-only" htmlFor="chat-draft">
          {t.message}
        </label>
        <textarea
          id="chat-draft"
          className="field min-h-12 flex-1"
          rows={2}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        {busy ? (
          <button type="button" className="button-danger" onClick={() => answering.current?.abort()}>
            {t.stop}
          </button>
        ) : (
          <button type="submit" className="button" disabled={draft.trim() === ''}>
            {t.send}
          </button>
        )}
      </form>
    </div>
  );
}

/**
 * The chat formats of the families Meshwork runs, for a template the Jinja subset cannot read:
 * recognised by the markers the template writes, rendered as the model's authors' template
 * renders a plain conversation (no tools). A model without any template (a base model such as
 * Gemma 3 270M) gets the plain text of the conversation.
 */

export interface ChatMessage {
  role: string;
  content: string;
}

export type ChatFormat = 'jinja' | 'chatml' | 'llama3' | 'gemma' | 'mistral' | 'phi3' | 'plain';

interface Options {
  addGenerationPrompt: boolean;
  bosToken: string;
  eosToken: string;
}
type Render = (messages: readonly ChatMessage[], options: Options) => string;

const each = (messages: readonly ChatMessage[], turn: (m: ChatMessage) => string) => messages.map(turn).join('');

/** System prompts folded into the first user turn, for formats without a system role. */
function folded(messages: readonly ChatMessage[]): ChatMessage[] {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content.trim());
  const rest = messages.filter((m) => m.role !== 'system');
  if (!system.length) return rest;
  const first = rest[0]?.role === 'user' ? rest.shift()!.content : '';
  return [{ role: 'user', content: `${system.join('\n\n')}\n\n${first}` }, ...rest];
}

const FORMATS: Record<Exclude<ChatFormat, 'jinja'>, { marker: string; render: Render }> = {
  chatml: {
    marker: '<|im_start|>',
    render: (messages, o) =>
      each(messages, (m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`) + (o.addGenerationPrompt ? '<|im_start|>assistant\n' : ''),
  },
  llama3: {
    marker: '<|start_header_id|>',
    render: (messages, o) =>
      o.bosToken +
      each(messages, (m) => `<|start_header_id|>${m.role}<|end_header_id|>\n\n${m.content.trim()}<|eot_id|>`) +
      (o.addGenerationPrompt ? '<|start_header_id|>assistant<|end_header_id|>\n\n' : ''),
  },
  gemma: {
    marker: '<start_of_turn>',
    render: (messages, o) =>
      o.bosToken +
      each(folded(messages), (m) => `<start_of_turn>${m.role === 'assistant' ? 'model' : m.role}\n${m.content.trim()}<end_of_turn>\n`) +
      (o.addGenerationPrompt ? '<start_of_turn>model\n' : ''),
  },
  mistral: {
    marker: '[INST]',
    render: (messages, o) =>
      o.bosToken +
      each(folded(messages), (m) => (m.role === 'user' ? `[INST] ${m.content.trim()} [/INST]` : ` ${m.content.trim()}${o.eosToken}`)),
  },
  phi3: {
    marker: '<|assistant|>',
    render: (messages, o) =>
      each(messages, (m) => `<|${m.role}|>\n${m.content}<|end|>\n`) + (o.addGenerationPrompt ? '<|assistant|>\n' : ''),
  },
  plain: {
    marker: '',
    render: (messages) => messages.map((m) => m.content).join('\n\n'),
  },
};

/** The family whose markers the template writes, or undefined. */
export function recogniseFormat(source: string): Exclude<ChatFormat, 'jinja'> | undefined {
  if (!source.trim()) return 'plain';
  const found = (['llama3', 'chatml', 'gemma', 'phi3', 'mistral'] as const).find((name) => source.includes(FORMATS[name].marker));
  return found;
}

export function renderFormat(format: Exclude<ChatFormat, 'jinja'>, messages: readonly ChatMessage[], options: Options): string {
  return FORMATS[format].render(messages, options);
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatCompletionMessage, ModelPackageManifest } from '@meshwork/contracts';
import { type ForwardPass, generate, type GenerateOptions, type Generation } from '../../engine/generate';
import { ContextLengthError } from '../../engine/errors';
import { type Defaults, generationDefaults, withDefaults } from '../../engine/generation-defaults';
import { LocalModel, type LocalModelOptions } from '../../engine/local-model';
import type { ChatFormat } from '../../engine/tokenizer/chat-families';
import { compileChatTemplate } from '../../engine/tokenizer/chat-template';
import { Tokenizer } from '../../engine/tokenizer/tokenizer';

/** A request's settings; what it leaves undefined takes the model's defaults. */
export type ChatSampling = Omit<GenerateOptions, 'stopTokens' | 'onText' | 'signal'>;

const textOf = (content: ChatCompletionMessage['content']) =>
  typeof content === 'string' ? content : (content ?? []).map((part) => part.text).join('');

/**
 * One model ready to chat: its forward pass (here, or chained across devices), its tokenizer
 * and chat template. It holds one conversation's cache; a request that begins with what the
 * cache already holds (the usual next turn of a chat) is only charged for the rest.
 */
export class ChatEngine {
  private cached: number[] = [];
  private readonly template;

  constructor(
    readonly manifest: ModelPackageManifest,
    private readonly model: ForwardPass & { release?(): Promise<void> },
    readonly tokenizer: Tokenizer,
  ) {
    this.template = compileChatTemplate(manifest.chatTemplate);
  }

  static async load(directory: string, options: LocalModelOptions = {}): Promise<ChatEngine> {
    const model = await LocalModel.load(directory, options);
    return new ChatEngine(model.manifest, model, await ChatEngine.tokenizer(directory));
  }

  /** A package's tokenizer (one for every conversation of the model). */
  static async tokenizer(directory: string): Promise<Tokenizer> {
    return Tokenizer.fromJson(JSON.parse(await readFile(join(directory, 'tokenizer.json'), 'utf8')));
  }

  get contextLength(): number {
    return this.model.contextLength;
  }

  /** What an answer uses where its request sets nothing. */
  get defaults(): Defaults {
    return generationDefaults(this.manifest);
  }

  /**
   * The conversation's prompt ids, with the template's generation prompt for the assistant's turn.
   * A prompt sure to exceed the context is refused before it is tokenised; a long one is
   * tokenised off the event loop.
   */
  async prompt(messages: readonly ChatCompletionMessage[]): Promise<number[]> {
    const special = this.manifest.specialTokens;
    const rendered = this.template(
      messages.map((m) => ({ role: m.role === 'developer' ? 'system' : m.role, content: textOf(m.content) })),
      {
        addGenerationPrompt: true,
        bosToken: special.bos === undefined ? '' : this.tokenizer.decode([special.bos]),
        eosToken: this.tokenizer.decode([special.eos]),
      },
    );
    return this.text(rendered);
  }

  /** How `prompt` writes a conversation: 'plain' for a model without a chat template (a base model). */
  get format(): ChatFormat {
    return this.template.format;
  }

  /** A raw prompt's ids (a completion's: no template), with the same bound on its length as a chat's. */
  async text(text: string): Promise<number[]> {
    // generate() refuses a prompt that leaves no room for one token: so does this bound.
    const least = this.tokenizer.leastTokens(text);
    if (least >= this.contextLength) throw new ContextLengthError(least + 1, this.contextLength, { atLeast: true });
    return this.tokenizer.encodeAsync(text);
  }

  /** Answers the prompt; the caller serialises calls (one cache). */
  async complete(
    prompt: readonly number[],
    sampling: ChatSampling,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<Generation> {
    // Keep the longest prefix already in the cache, but run at least the last prompt position.
    let keep = 0;
    const limit = Math.min(this.cached.length, prompt.length - 1);
    while (keep < limit && this.cached[keep] === prompt[keep]) keep++;
    this.model.truncate(keep);
    this.cached = this.cached.slice(0, keep);
    try {
      const result = await generate(this.model, this.tokenizer.decoder(), prompt.slice(keep), {
        ...withDefaults(sampling, this.defaults),
        stopTokens: this.manifest.specialTokens.stop,
        onText,
        signal,
      });
      this.cached = [...prompt, ...result.tokens].slice(0, this.model.length);
      return { ...result, promptTokens: prompt.length };
    } catch (error) {
      this.model.truncate(0);
      this.cached = [];
      throw error;
    }
  }

  async release(): Promise<void> {
    await this.model.release?.();
  }
}

/** More positions than the model reads: the caller shortens the conversation. */
export class ContextLengthError extends Error {
  constructor(
    readonly requested: number,
    readonly contextLength: number,
  ) {
    super(`The conversation needs ${requested} tokens; this model reads at most ${contextLength}. Shorten it or start a new one.`);
    this.name = 'ContextLengthError';
  }
}

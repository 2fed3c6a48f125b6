/** More positions than the model reads: the caller shortens the conversation. */
export class ContextLengthError extends Error {
  constructor(
    readonly requested: number,
    readonly contextLength: number,
    /** `requested` is a bound found before tokenising: the conversation needs at least that. */
    { atLeast = false }: { atLeast?: boolean } = {},
  ) {
    super(
      `The conversation needs ${atLeast ? 'at least ' : ''}${requested} tokens; this model reads at most ${contextLength}. Shorten it or start a new one.`,
    );
    this.name = 'ContextLengthError';
  }
}

/** The cache of a conversation is not there (dropped, or the device restarted): the host runs the conversation again. */
export class CacheMissing extends Error {}

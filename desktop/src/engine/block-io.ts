/**
 * The names of each block graph's inputs and outputs: the packer writes them, hosts feed them.
 * Part of the package format (model-package.contract.ts), kept here beside the engine so the
 * engine thread loads no schemas (the contracts' zod schemas cost a thread about 24 MB).
 */
export const BlockIo = {
  inputIds: 'input_ids',
  hiddenIn: 'hidden_states',
  hiddenOut: 'hidden_states_out',
  logits: 'logits',
  seqlensK: 'seqlens_k',
  totalLength: 'total_sequence_length',
  pastKey: (layer: number) => `past_key.${layer}`,
  pastValue: (layer: number) => `past_value.${layer}`,
  /**
   * Only the positions this run added, every layer of the block in one tensor (one output is
   * cheaper to hand over than 2 per layer): [2 × layers, kvHeads, S, headDim], each layer's key
   * then its value, in layer order. The caller appends them to its cache.
   */
  newKeyValues: 'new_key_values',
  /** Format 2: rotary table `index` of the manifest's `rotary`, [positions ≥ total length, headDim/2]. */
  rotaryCos: (index: number) => `rotary_cos.${index}`,
  rotarySin: (index: number) => `rotary_sin.${index}`,
} as const;

/**
 * The package's `tokenizer.json`, taken from the GGUF's tokenizer metadata, and the tokens that
 * end an answer (end of text and end of turn markers the vocabulary marks as control tokens).
 */
import { TokenizerJson } from '@meshwork/contracts';
import { metaArray, metaNumber, metaString, type GgufFile } from './gguf';

const END_OF_TURN = ['<|im_end|>', '<|eot_id|>', '<|end|>', '<|endoftext|>', '<end_of_turn>'];
const CONTROL = 3;

export function tokenizerJson(file: GgufFile): TokenizerJson {
  const model = metaString(file, 'tokenizer.ggml.model');
  if (model !== 'gpt2') throw new Error(`Only byte-level BPE ("gpt2") tokenizers can be packed; this model's is "${model}"`);
  const strings = (key: string) =>
    metaArray(file, key).map((value) => {
      if (typeof value !== 'string') throw new Error(`The model's ${key} holds something other than text`);
      return value;
    });
  const tokens = strings('tokenizer.ggml.tokens');
  const has = (key: string) => file.metadata.has(key);
  return TokenizerJson.parse({
    format: 'meshwork-tokenizer/1',
    model,
    pre: has('tokenizer.ggml.pre') ? metaString(file, 'tokenizer.ggml.pre') : 'default',
    tokens,
    tokenTypes: has('tokenizer.ggml.token_type') ? metaArray(file, 'tokenizer.ggml.token_type').map(Number) : tokens.map(() => 1),
    merges: strings('tokenizer.ggml.merges'),
    bos: has('tokenizer.ggml.bos_token_id') ? metaNumber(file, 'tokenizer.ggml.bos_token_id') : undefined,
    eos: metaNumber(file, 'tokenizer.ggml.eos_token_id'),
    addBos: has('tokenizer.ggml.add_bos_token') ? file.metadata.get('tokenizer.ggml.add_bos_token') === true : false,
    chatTemplate: has('tokenizer.chat_template') ? metaString(file, 'tokenizer.chat_template') : '',
  });
}

/** End of text plus every control token that ends a turn. */
export function stopTokens(tokenizer: TokenizerJson): number[] {
  const stops = new Set([tokenizer.eos]);
  for (const [id, token] of tokenizer.tokens.entries()) {
    if (tokenizer.tokenTypes[id] === CONTROL && END_OF_TURN.includes(token)) stops.add(id);
  }
  return [...stops].slice(0, 16);
}

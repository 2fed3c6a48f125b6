/**
 * The tokenizer thread's body (started by `TokenizerThread`): the tokenizer from `workerData`,
 * then one reply per text, the ids moved (not copied) back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Tokenizer } from './tokenizer';
import type { TokenizeReply, TokenizeRequest } from './tokenizer-thread';

const tokenizer = Tokenizer.fromJson(workerData);

parentPort!.on('message', ({ id, text, special }: TokenizeRequest) => {
  try {
    const ids = Int32Array.from(tokenizer.encode(text, { special }));
    parentPort!.postMessage({ id, ids } satisfies TokenizeReply, [ids.buffer]);
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message } satisfies TokenizeReply);
  }
});

/**
 * The engine thread's body (started by `EngineThread`): loads the block set `workerData` names,
 * says so (or why not), then answers each request in order, moving outputs back rather than
 * copying them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BlockSet } from './block-set';
import { type EngineReply, type EngineRequest, type EngineStart, failureOf, LOADED, STARTED } from './engine-thread';

const port = parentPort!;
const { directory, manifest, blocks, options } = workerData as EngineStart;

async function main(): Promise<void> {
  port.postMessage({ id: STARTED, caches: [] } satisfies EngineReply);
  let set: BlockSet;
  try {
    set = await BlockSet.load(directory, manifest, blocks, options);
  } catch (error) {
    port.postMessage({ id: LOADED, failure: failureOf(error) } satisfies EngineReply);
    return;
  }
  port.postMessage({ id: LOADED, caches: [] } satisfies EngineReply);
  // One request at a time: a session runs synchronously anyway, and a conversation's requests stay in order.
  let queue = Promise.resolve();
  port.on('message', (request: EngineRequest) => {
    queue = queue.then(() => answer(set, request));
  });
}

async function answer(set: BlockSet, request: EngineRequest): Promise<void> {
  try {
    if (request.kind === 'forward') {
      const { seq, position, first, end, input, tokens } = request;
      let output = await set.forward(seq, position, first, end, input, tokens);
      // Moved, not copied: a view into a larger buffer is cut out first so only its bytes go.
      if (output.byteOffset !== 0 || output.byteLength !== output.buffer.byteLength) output = output.slice();
      port.postMessage({ id: request.id, output, caches: set.cacheBytes() } satisfies EngineReply, [output.buffer as ArrayBuffer]);
      return;
    }
    if (request.kind === 'release') set.release(request.seq);
    else if (request.kind === 'end_profiling') set.endProfiling();
    else await set.close();
    port.postMessage({ id: request.id, caches: set.cacheBytes() } satisfies EngineReply);
  } catch (error) {
    port.postMessage({ id: request.id, failure: failureOf(error), caches: set.cacheBytes() } satisfies EngineReply);
  }
}

void main();

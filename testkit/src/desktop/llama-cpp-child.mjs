// Runs llama.cpp (node-llama-cpp) on one GGUF in its own process, for llama-cpp-reference.ts:
// node-llama-cpp is an ES module with a native addon and its own threads, which a Jest worker
// cannot import. Reads a request, writes the answer as JSON:
//   node llama-cpp-child.mjs <node-llama-cpp entry url> <request.json> <answer.json>
// request: { gguf, tokens, mode: 'top-k', k, from? } (positions from `from` on) or { gguf, tokens, mode: 'greedy', count }
import { readFileSync, writeFileSync } from 'node:fs';

const [entry, requestFile, answerFile] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestFile, 'utf8'));
const { getLlama } = await import(entry);
const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
const model = await llama.loadModel({ modelPath: request.gguf, gpuLayers: 0 });
const size = request.tokens.length + (request.count ?? 0);
// An fp32 cache and no flash attention: llama.cpp's most exact CPU path, to compare with fp32 activations.
// Room past the last token: with a context exactly full, llama.cpp's last logits on gemma2 (sliding
// windows) differ from what the same position gives in a longer run.
const context = await model.createContext({
  contextSize: Math.max(size + 64, 256),
  batchSize: Math.max(size, 256),
  threads: 2,
  flashAttention: false,
  experimentalKvCacheKeyType: 'F32',
  experimentalKvCacheValueType: 'F32',
});
const sequence = context.getSequence();
let answer;
if (request.mode === 'top-k') {
  const wanted = { generateNext: { logits: { filter: { tokens: [], includeTop: request.k } } } };
  const from = request.from ?? 0;
  const results = await sequence.controlledEvaluate(request.tokens.map((token, i) => (i >= from ? [token, wanted] : token)));
  answer = results.slice(from).map((result) => [...result.next.logits.entries()].slice(0, request.k));
} else {
  answer = [];
  const tokens = sequence.evaluate(request.tokens, { temperature: 0 });
  for await (const token of tokens) {
    answer.push(token);
    if (answer.length === request.count) break;
  }
}
writeFileSync(answerFile, JSON.stringify(answer));
await context.dispose();
await model.dispose();
await llama.dispose();

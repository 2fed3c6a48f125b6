// Tokenises texts with llama.cpp (node-llama-cpp) in its own process, for llama-cpp-tokenizer.ts
// (a Jest worker cannot import node-llama-cpp's ES module and native addon). Only the vocabulary
// is loaded. Special tokens written in a text are parsed; no BOS or EOS is added.
//   node llama-cpp-tokenize-child.mjs <node-llama-cpp entry url> <request.json> <answer.json>
// request: { gguf, texts: string[] }; answer: number[][]
import { readFileSync, writeFileSync } from 'node:fs';

const [entry, requestFile, answerFile] = process.argv.slice(2);
const { gguf, texts } = JSON.parse(readFileSync(requestFile, 'utf8'));
const { getLlama } = await import(entry);
const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
const model = await llama.loadModel({ modelPath: gguf, gpuLayers: 0, vocabOnly: true });
writeFileSync(answerFile, JSON.stringify(texts.map((text) => Array.from(model.tokenize(text, true)))));
await model.dispose();
await llama.dispose();

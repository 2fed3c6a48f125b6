/**
 * Reads one block's weights out of a GGUF file into the forms the graph builder takes. Only
 * the block's own tensors are read, so packing holds one block in memory at a time.
 */
import type { BlockWeights, LayerWeights } from './block-graph';
import { readTensorBytes, type GgufFile } from './gguf';
import type { Embedding } from './linear';
import type { ModelConfig } from './model-config';
import { toEmbedding, toMatrix, type Activations, type Matrix } from './matrices';
import { dequantize } from './quant';

export interface BlockRange {
  /** First layer, inclusive. */
  first: number;
  /** Last layer, exclusive. */
  end: number;
}

async function tensor(file: GgufFile, name: string) {
  const info = file.tensors.get(name);
  if (!info) throw new Error(`The model has no tensor ${name}`);
  return { info, bytes: await readTensorBytes(file, info) };
}

async function vector(file: GgufFile, name: string, length: number): Promise<Float32Array> {
  const { info, bytes } = await tensor(file, name);
  if (info.dims.length !== 1 || info.dims[0] !== length)
    throw new Error(`${name} should hold ${length} values, not [${info.dims.join(', ')}]`);
  return dequantize(info.type, bytes, length);
}

async function matrix(file: GgufFile, name: string, k: number, n: number, activations: Activations): Promise<Matrix> {
  const { info, bytes } = await tensor(file, name);
  if (info.dims[0] !== k || info.dims[1] !== n) throw new Error(`${name} should be [${k}, ${n}], not [${info.dims.join(', ')}]`);
  return toMatrix(info.type, info.dims, bytes, activations);
}

/** q, k and v biases side by side, in the order of the stacked projection. */
async function biases(file: GgufFile, at: (name: string, kind?: string) => string, config: ModelConfig): Promise<Float32Array> {
  const { heads, kvHeads, headDim } = config;
  const parts = [
    await vector(file, at('attn_q', 'bias'), heads * headDim),
    await vector(file, at('attn_k', 'bias'), kvHeads * headDim),
    await vector(file, at('attn_v', 'bias'), kvHeads * headDim),
  ];
  const [q, k, v] = parts as [Float32Array, Float32Array, Float32Array];
  const out = new Float32Array(q.length + k.length + v.length);
  out.set(q);
  out.set(k, q.length);
  out.set(v, q.length + k.length);
  return out;
}

/** One layer's tensors, as its architecture names them. */
async function layer(file: GgufFile, config: ModelConfig, index: number, activations: Activations): Promise<LayerWeights> {
  const { hidden, ffn, heads, kvHeads, headDim, kind } = config;
  const at = (name: string, suffix = 'weight') => `blk.${index}.${name}.${suffix}`;
  const queryWidth = heads * headDim;
  const kvWidth = kvHeads * headDim;
  // llama.cpp takes a fused `attn_qkv` wherever it is present (Phi-3 writes one).
  const qkv = file.tensors.has(at('attn_qkv'))
    ? [await matrix(file, at('attn_qkv'), hidden, queryWidth + 2 * kvWidth, activations)]
    : [
        await matrix(file, at('attn_q'), hidden, queryWidth, activations),
        await matrix(file, at('attn_k'), hidden, kvWidth, activations),
        await matrix(file, at('attn_v'), hidden, kvWidth, activations),
      ];
  const optionalVector = (wanted: boolean, name: string, length: number) => (wanted ? vector(file, at(name), length) : undefined);
  return {
    attentionNorm: await vector(file, at('attn_norm'), hidden),
    qkv,
    qkvBias: kind.qkvBias ? await biases(file, at, config) : undefined,
    queryNorm: await optionalVector(kind.qkNorm, 'attn_q_norm', headDim),
    keyNorm: await optionalVector(kind.qkNorm, 'attn_k_norm', headDim),
    attentionOutput: await matrix(file, at('attn_output'), queryWidth, hidden, activations),
    postAttentionNorm: await optionalVector(kind.postNorms, 'post_attention_norm', hidden),
    ffnNorm: await vector(file, at('ffn_norm'), hidden),
    gateUp: kind.fusedGateUp
      ? [await matrix(file, at('ffn_up'), hidden, 2 * ffn, activations)]
      : [await matrix(file, at('ffn_gate'), hidden, ffn, activations), await matrix(file, at('ffn_up'), hidden, ffn, activations)],
    down: await matrix(file, at('ffn_down'), ffn, hidden, activations),
    postFfnNorm: await optionalVector(kind.postNorms, 'post_ffw_norm', hidden),
  };
}

export async function loadBlockWeights(
  file: GgufFile,
  config: ModelConfig,
  range: BlockRange,
  activations: Activations,
  onLayer: (index: number) => void = () => undefined,
): Promise<BlockWeights> {
  const layers: LayerWeights[] = [];
  for (let index = range.first; index < range.end; index++) {
    layers.push(await layer(file, config, index, activations));
    onLayer(index);
  }
  const { hidden, vocabSize } = config;
  // Llama 3.1 and 3.2's rotary frequency factors, shared by every layer.
  const ropeFactors =
    config.kind.ropeFactors && file.tensors.has('rope_freqs.weight')
      ? await vector(file, 'rope_freqs.weight', config.headDim / 2)
      : undefined;
  let embedding: Embedding | undefined;
  if (range.first === 0) {
    const { info, bytes } = await tensor(file, 'token_embd.weight');
    if (info.dims[0] !== hidden || info.dims[1] !== vocabSize)
      throw new Error(`token_embd.weight should be [${hidden}, ${vocabSize}], not [${info.dims.join(', ')}]`);
    embedding = toEmbedding(info.type, info.dims, bytes);
  }
  if (range.end !== config.layers) return { firstLayer: range.first, layers, embedding, ropeFactors };
  const outputNorm = await vector(file, 'output_norm.weight', hidden);
  const headName = config.tiedEmbedding ? 'token_embd.weight' : 'output.weight';
  const reuse = config.tiedEmbedding && activations === 'int8' && embedding?.kind === 'blocks' ? embedding.shared : undefined;
  const output = reuse ?? (await matrix(file, headName, hidden, vocabSize, activations));
  return { firstLayer: range.first, layers, embedding, ropeFactors, head: { outputNorm, output } };
}

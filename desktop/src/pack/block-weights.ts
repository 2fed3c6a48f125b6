/**
 * Reads one block's weights out of a GGUF file into the forms the graph builder takes. Only
 * the block's own tensors are read, so packing holds one block in memory at a time.
 */
import type { BlockWeights, LayerWeights } from './block-graph';
import { readTensorBytes, type GgufFile } from './gguf';
import type { LlamaConfig } from './llama-config';
import type { Embedding } from './linear';
import { toMatrix, unpackQ4, type Activations, type Matrix } from './matrices';
import { dequantize, GgmlType } from './quant';

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

/**
 * The token embedding. A Q8_0 embedding keeps the bytes of the 8-bit matrix form, so with int8
 * activations a tied head in the same block stores them once.
 */
function toEmbedding(type: GgmlType, bytes: Buffer, config: LlamaConfig): Embedding {
  const { vocabSize: vocab, hidden } = config;
  switch (type) {
    case GgmlType.Q8_0: {
      const matrix = toMatrix(type, [hidden, vocab], bytes, 'int8');
      if (matrix.kind !== 'q8') throw new Error('unreachable: Q8_0 with int8 activations is an 8-bit matrix');
      return { kind: 'blocks', vocab, hidden, bytes: matrix.bytes, offset: 128, scales: matrix.scales, shared: matrix };
    }
    case GgmlType.Q4_0:
    case GgmlType.Q4_1: {
      const withMin = type === GgmlType.Q4_1;
      const { quants, scales, mins } = unpackQ4(bytes, vocab * hidden, withMin);
      return { kind: 'blocks', vocab, hidden, bytes: quants, offset: withMin ? 0 : 8, scales, mins };
    }
    default:
      return { kind: 'float', vocab, hidden, rows: dequantize(type, bytes, vocab * hidden) };
  }
}

async function layer(file: GgufFile, config: LlamaConfig, index: number, activations: Activations): Promise<LayerWeights> {
  const { hidden, ffn, kvHeads, headDim } = config;
  const at = (name: string) => `blk.${index}.${name}.weight`;
  return {
    attentionNorm: await vector(file, at('attn_norm'), hidden),
    query: await matrix(file, at('attn_q'), hidden, hidden, activations),
    key: await matrix(file, at('attn_k'), hidden, kvHeads * headDim, activations),
    value: await matrix(file, at('attn_v'), hidden, kvHeads * headDim, activations),
    attentionOutput: await matrix(file, at('attn_output'), hidden, hidden, activations),
    ffnNorm: await vector(file, at('ffn_norm'), hidden),
    gate: await matrix(file, at('ffn_gate'), hidden, ffn, activations),
    up: await matrix(file, at('ffn_up'), hidden, ffn, activations),
    down: await matrix(file, at('ffn_down'), ffn, hidden, activations),
  };
}

export async function loadBlockWeights(
  file: GgufFile,
  config: LlamaConfig,
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
  let embedding: Embedding | undefined;
  if (range.first === 0) {
    const { info, bytes } = await tensor(file, 'token_embd.weight');
    if (info.dims[0] !== hidden || info.dims[1] !== vocabSize)
      throw new Error(`token_embd.weight should be [${hidden}, ${vocabSize}], not [${info.dims.join(', ')}]`);
    embedding = toEmbedding(info.type, bytes, config);
  }
  if (range.end !== config.layers) return { firstLayer: range.first, layers, embedding };
  const outputNorm = await vector(file, 'output_norm.weight', hidden);
  const headName = config.tiedEmbedding ? 'token_embd.weight' : 'output.weight';
  const reuse = config.tiedEmbedding && activations === 'int8' && embedding?.kind === 'blocks' ? embedding.shared : undefined;
  const output = reuse ?? (await matrix(file, headName, hidden, vocabSize, activations));
  return { firstLayer: range.first, layers, embedding, head: { outputNorm, output } };
}

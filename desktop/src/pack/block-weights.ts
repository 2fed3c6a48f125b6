/**
 * Reads one block's weights out of a GGUF file into the forms the graph builder takes, each
 * tensor when the graph reaches it: packing holds a layer (or the embedding, or the head) in
 * memory at a time, never the block or the file. Reads are synchronous because the graph
 * builder pulls them; packing is a batch job of its own.
 */
import type { BlockWeights, LayerWeights } from './block-graph';
import { readTensorBytesSync, type GgufFile, type GgufTensorInfo } from './gguf';
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

/** Told of every tensor read, for progress. */
export type TensorRead = (info: GgufTensorInfo) => void;

/** The GGUF file and who to tell of each read. */
interface Source {
  file: GgufFile;
  onRead: TensorRead;
}

function tensor({ file, onRead }: Source, name: string) {
  const info = file.tensors.get(name);
  if (!info) throw new Error(`The model has no tensor ${name}`);
  const bytes = readTensorBytesSync(file, info);
  onRead(info);
  return { info, bytes };
}

function vector(file: Source, name: string, length: number): Float32Array {
  const { info, bytes } = tensor(file, name);
  if (info.dims.length !== 1 || info.dims[0] !== length)
    throw new Error(`${name} should hold ${length} values, not [${info.dims.join(', ')}]`);
  return dequantize(info.type, bytes, length);
}

function matrix(file: Source, name: string, k: number, n: number, activations: Activations): Matrix {
  const { info, bytes } = tensor(file, name);
  if (info.dims[0] !== k || info.dims[1] !== n) throw new Error(`${name} should be [${k}, ${n}], not [${info.dims.join(', ')}]`);
  return toMatrix(info.type, info.dims, bytes, activations);
}

/** q, k and v biases side by side, in the order of the stacked projection. */
function biases(file: Source, at: (name: string, kind?: string) => string, config: ModelConfig): Float32Array {
  const { heads, kvHeads, headDim } = config;
  const parts = [
    vector(file, at('attn_q', 'bias'), heads * headDim),
    vector(file, at('attn_k', 'bias'), kvHeads * headDim),
    vector(file, at('attn_v', 'bias'), kvHeads * headDim),
  ];
  const [q, k, v] = parts as [Float32Array, Float32Array, Float32Array];
  const out = new Float32Array(q.length + k.length + v.length);
  out.set(q);
  out.set(k, q.length);
  out.set(v, q.length + k.length);
  return out;
}

/** One layer's tensors, as its architecture names them. */
function layer(file: Source, config: ModelConfig, index: number, activations: Activations): LayerWeights {
  const { hidden, ffn, heads, kvHeads, headDim, kind } = config;
  const at = (name: string, suffix = 'weight') => `blk.${index}.${name}.${suffix}`;
  const queryWidth = heads * headDim;
  const kvWidth = kvHeads * headDim;
  // llama.cpp takes a fused `attn_qkv` wherever it is present (Phi-3 writes one).
  const qkv = file.file.tensors.has(at('attn_qkv'))
    ? [matrix(file, at('attn_qkv'), hidden, queryWidth + 2 * kvWidth, activations)]
    : [
        matrix(file, at('attn_q'), hidden, queryWidth, activations),
        matrix(file, at('attn_k'), hidden, kvWidth, activations),
        matrix(file, at('attn_v'), hidden, kvWidth, activations),
      ];
  const optionalVector = (wanted: boolean, name: string, length: number) => (wanted ? vector(file, at(name), length) : undefined);
  return {
    attentionNorm: vector(file, at('attn_norm'), hidden),
    qkv,
    qkvBias: kind.qkvBias ? biases(file, at, config) : undefined,
    queryNorm: optionalVector(kind.qkNorm, 'attn_q_norm', headDim),
    keyNorm: optionalVector(kind.qkNorm, 'attn_k_norm', headDim),
    attentionOutput: matrix(file, at('attn_output'), queryWidth, hidden, activations),
    postAttentionNorm: optionalVector(kind.postNorms, 'post_attention_norm', hidden),
    ffnNorm: vector(file, at('ffn_norm'), hidden),
    gateUp: kind.fusedGateUp
      ? [matrix(file, at('ffn_up'), hidden, 2 * ffn, activations)]
      : [matrix(file, at('ffn_gate'), hidden, ffn, activations), matrix(file, at('ffn_up'), hidden, ffn, activations)],
    down: matrix(file, at('ffn_down'), ffn, hidden, activations),
    postFfnNorm: optionalVector(kind.postNorms, 'post_ffw_norm', hidden),
  };
}

/** The block's layers, one at a time as the graph builder takes them. */
function* layers(file: Source, config: ModelConfig, range: BlockRange, activations: Activations, onLayer: (index: number) => void) {
  for (let index = range.first; index < range.end; index++) {
    yield layer(file, config, index, activations);
    onLayer(index);
  }
}

/**
 * A block's weights, read lazily: `layers` as they are iterated, the embedding and the head
 * when called. Reading the same block twice reads the file twice.
 */
export function blockWeights(
  file: GgufFile,
  config: ModelConfig,
  range: BlockRange,
  activations: Activations,
  events: { onLayer?: (index: number) => void; onRead?: TensorRead } = {},
): BlockWeights {
  const source: Source = { file, onRead: events.onRead ?? (() => undefined) };
  const { hidden, vocabSize } = config;
  // Llama 3.1 and 3.2's rotary frequency factors, shared by every layer.
  const ropeFactors =
    config.kind.ropeFactors && file.tensors.has('rope_freqs.weight') ? vector(source, 'rope_freqs.weight', config.headDim / 2) : undefined;
  // A tied head in the same block stores the table once: the embedding's 8-bit codes as the head
  // (int8 activations), or the head's 4-bit terms as the embedding (looked up per token).
  const tiedHere = config.tiedEmbedding && range.first === 0 && range.end === config.layers;
  let shared: Matrix | undefined;
  const embedding = (): Embedding => {
    const { info, bytes } = tensor(source, 'token_embd.weight');
    if (info.dims[0] !== hidden || info.dims[1] !== vocabSize)
      throw new Error(`token_embd.weight should be [${hidden}, ${vocabSize}], not [${info.dims.join(', ')}]`);
    const read = toEmbedding(info.type, info.dims, bytes);
    if (tiedHere && activations === 'int8' && read.kind === 'blocks' && read.shared) {
      shared = read.shared;
      return read;
    }
    if (tiedHere && read.kind === 'blocks') {
      const head = toMatrix(info.type, info.dims, bytes, activations);
      if (head.kind === 'q4') {
        shared = head;
        return { kind: 'head', matrix: head };
      }
    }
    return read;
  };
  const head = () => {
    const outputNorm = vector(source, 'output_norm.weight', hidden);
    const output = shared ?? matrix(source, config.tiedEmbedding ? 'token_embd.weight' : 'output.weight', hidden, vocabSize, activations);
    return { outputNorm, output };
  };
  return {
    firstLayer: range.first,
    layers: layers(source, config, range, activations, events.onLayer ?? (() => undefined)),
    embedding: range.first === 0 ? embedding : undefined,
    ropeFactors,
    head: range.end === config.layers ? head : undefined,
  };
}

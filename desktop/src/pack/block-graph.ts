/**
 * One block of a llama model as an ONNX graph: a range of decoder layers, the token embedding
 * in the first block, the final norm and output head in the last. Blocks pass the residual
 * stream (`hidden_states`, [S, hidden]) from one to the next, so a model can be split across
 * processes or machines at any layer. Each layer keeps its own key/value cache as graph
 * inputs and outputs, so the caller owns the cache: `past_key.L` is the cache (its capacity may
 * exceed what it holds: `seqlens_k` says how much is valid) and `new_key_values` only the
 * positions this run added. Answering the whole cache would cost onnxruntime-node a copy of every layer's
 * cache per token (measured: 2.3 ms a token at 256 positions, 9 ms at 1,024).
 */
import type { LlamaConfig } from './llama-config';
import { Weights, type Embedding } from './linear';
import type { Activations, Matrix } from './matrices';
import { stackRows } from './matrices';
import { DataType, GraphBuilder } from './onnx/graph';
import { BlockIo } from '@meshwork/contracts';

export interface LayerWeights {
  attentionNorm: Float32Array;
  query: Matrix;
  key: Matrix;
  value: Matrix;
  attentionOutput: Matrix;
  ffnNorm: Float32Array;
  gate: Matrix;
  up: Matrix;
  down: Matrix;
}

export interface BlockWeights {
  /** The first global layer index of `layers`. */
  firstLayer: number;
  layers: LayerWeights[];
  /** Present in the first block only. */
  embedding?: Embedding;
  /** Present in the last block only. */
  head?: { outputNorm: Float32Array; output: Matrix };
}

/** Rotary tables for every position up to the context length, [context, headDim/2]. */
export function rotaryTables(config: LlamaConfig): { cos: Float32Array; sin: Float32Array } {
  const half = config.headDim / 2;
  const cos = new Float32Array(config.contextLength * half);
  const sin = new Float32Array(config.contextLength * half);
  for (let i = 0; i < half; i++) {
    const frequency = Math.pow(config.ropeBase, (-2 * i) / config.headDim);
    for (let position = 0; position < config.contextLength; position++) {
      cos[position * half + i] = Math.cos(position * frequency);
      sin[position * half + i] = Math.sin(position * frequency);
    }
  }
  return { cos, sin };
}

/**
 * Applies `matrices` (which all read `input`) as one node with their outputs side by side, when
 * their forms stack; otherwise one node each, joined.
 */
function stackedLinear(w: Weights, g: GraphBuilder, input: string, matrices: Matrix[], name: string): string {
  const stacked = stackRows(matrices);
  if (stacked) return w.linear(input, stacked, name);
  return g.op(
    'Concat',
    matrices.map((matrix, i) => w.linear(input, matrix, `${name}.${i}`)),
    { axis: { i: -1 } },
  );
}

/** `weightsFile`: where large weights go, beside the graph (mapped by onnxruntime, not copied). */
export function buildBlockGraph(
  config: LlamaConfig,
  block: BlockWeights,
  activations: Activations,
  name: string,
  weightsFile?: string,
): GraphBuilder {
  const g = new GraphBuilder(name, weightsFile);
  const w = new Weights(g, activations);
  const { hidden, headDim, kvHeads, rmsEpsilon } = config;
  const epsilon = { f: rmsEpsilon };
  const kvDims = [1, kvHeads, 'past_sequence_length', headDim];

  let residual = block.embedding
    ? w.embed(g.input(BlockIo.inputIds, DataType.INT64, [1, 'sequence_length']), block.embedding)
    : g.input(BlockIo.hiddenIn, DataType.FLOAT, ['sequence_length', hidden]);
  const seqlensK = g.input(BlockIo.seqlensK, DataType.INT32, [1]);
  const totalLength = g.input(BlockIo.totalLength, DataType.INT32, []);
  // The new positions are [total - S, total) of each present cache.
  const newEnd = g.op('Cast', [g.op('Unsqueeze', [totalLength, w.int64s([0])])], { to: { i: DataType.INT64 } });
  const newStart = g.op('Sub', [newEnd, g.op('Gather', [g.op('Shape', [residual]), w.int64s([0])])]);
  const positionAxis = w.int64s([2]);
  const newKeyValues: string[] = [];
  const { cos, sin } = rotaryTables(config);
  const cosCache = w.constant('rotary.cos', DataType.FLOAT, [config.contextLength, headDim / 2], cos);
  const sinCache = w.constant('rotary.sin', DataType.FLOAT, [config.contextLength, headDim / 2], sin);

  // The residual add is fused into the next norm (SkipSimplifiedLayerNormalization), so a
  // layer hands on its last projection (`pending`) and the stream before it (`residual`).
  let pending: string | undefined;
  const norm = (weight: Float32Array, label: string): string => {
    const gamma = w.constant(label, DataType.FLOAT, [hidden], weight);
    if (!pending) return g.op('SimplifiedLayerNormalization', [residual, gamma], { axis: { i: -1 }, epsilon });
    const [normed, , , sum] = g.node(
      'SkipSimplifiedLayerNormalization',
      [pending, residual, gamma],
      { epsilon },
      { outputs: 4, domain: 'microsoft' },
    );
    residual = sum!;
    pending = undefined;
    return normed!;
  };

  for (const [i, layer] of block.layers.entries()) {
    const index = block.firstLayer + i;
    const at = `layer.${index}`;
    // Query, key and value side by side: GroupQueryAttention's packed input, no Split.
    const qkv = stackedLinear(w, g, norm(layer.attentionNorm, `${at}.attention_norm`), [layer.query, layer.key, layer.value], `${at}.qkv`);
    const pastKey = g.input(BlockIo.pastKey(index), DataType.FLOAT, kvDims);
    const pastValue = g.input(BlockIo.pastValue(index), DataType.FLOAT, kvDims);
    const [attention, presentKey, presentValue] = g.node(
      'GroupQueryAttention',
      [g.op('Unsqueeze', [qkv, w.int64s([0])]), '', '', pastKey, pastValue, seqlensK, totalLength, cosCache, sinCache],
      { num_heads: { i: config.heads }, kv_num_heads: { i: kvHeads }, do_rotary: { i: 1 }, rotary_interleaved: { i: 1 } },
      { outputs: 3, domain: 'microsoft' },
    );
    for (const present of [presentKey!, presentValue!]) newKeyValues.push(g.op('Slice', [present, newStart, newEnd, positionAxis]));
    pending = w.linear(g.op('Squeeze', [attention!, w.int64s([0])]), layer.attentionOutput, `${at}.attention_output`);
    const gateUp = stackedLinear(w, g, norm(layer.ffnNorm, `${at}.ffn_norm`), [layer.gate, layer.up], `${at}.gate_up`);
    const [gate, up] = g.node('Split', [gateUp, w.int64s([config.ffn, config.ffn])], { axis: { i: -1 } }, { outputs: 2 });
    // SiLU(gate) = gate·sigmoid(gate): QuickGelu with alpha 1 is that in one node.
    const activated = g.op('Mul', [g.op('QuickGelu', [gate!], { alpha: { f: 1 } }, 'microsoft'), up!]);
    pending = w.linear(activated, layer.down, `${at}.ffn_down`);
  }

  g.node('Concat', newKeyValues, { axis: { i: 0 } }, { outputs: [BlockIo.newKeyValues] });
  g.output(BlockIo.newKeyValues, DataType.FLOAT, [2 * block.layers.length, kvHeads, 'sequence_length', headDim]);

  if (block.head) {
    const normed = norm(block.head.outputNorm, 'output_norm');
    // Only the last position's logits are needed to pick the next token.
    const last = g.op('Slice', [normed, w.int64s([-1]), w.int64s([Number.MAX_SAFE_INTEGER]), w.int64s([0])]);
    g.node('Identity', [w.linear(last, block.head.output, 'output')], {}, { outputs: [BlockIo.logits] });
    g.output(BlockIo.logits, DataType.FLOAT, [1, config.vocabSize]);
  } else {
    // Every block holds at least one layer, so its last down projection is still pending.
    g.node('Add', [pending!, residual], {}, { outputs: [BlockIo.hiddenOut] });
    g.output(BlockIo.hiddenOut, DataType.FLOAT, ['sequence_length', hidden]);
  }
  return g;
}

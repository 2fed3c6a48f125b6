/**
 * One block of a model as an ONNX graph (llama's layer, with what its architecture adds:
 * see architectures.ts): a range of decoder layers, the token embedding
 * in the first block, the final norm and output head in the last. Blocks pass the residual
 * stream (`hidden_states`, [S, hidden]) from one to the next, so a model can be split across
 * processes or machines at any layer. Each layer keeps its own key/value cache as graph
 * inputs and outputs, so the caller owns the cache: `past_key.L` is the cache (its capacity may
 * exceed what it holds: `seqlens_k` says how much is valid) and `new_key_values` only the
 * positions this run added. Answering the whole cache would cost onnxruntime-node a copy of every layer's
 * cache per token (measured: 2.3 ms a token at 256 positions, 9 ms at 1,024).
 */
import { Weights, type Embedding } from './linear';
import type { Activations, Matrix } from './matrices';
import { stackRows } from './matrices';
import { isSlidingLayer, type ModelConfig } from './model-config';
import type { ExternalWeights } from './onnx/external-weights';
import { DataType, GraphBuilder } from './onnx/graph';
import { BlockIo } from '../engine/block-io';

export interface LayerWeights {
  attentionNorm: Float32Array;
  /** q, k and v: three matrices, or one fused. */
  qkv: Matrix[];
  qkvBias?: Float32Array;
  /** Per-head RMS norms of q and k, [headDim]. */
  queryNorm?: Float32Array;
  keyNorm?: Float32Array;
  attentionOutput: Matrix;
  postAttentionNorm?: Float32Array;
  ffnNorm: Float32Array;
  /** Gate and up: two matrices, or one fused (gate first). */
  gateUp: Matrix[];
  down: Matrix;
  postFfnNorm?: Float32Array;
}

export interface BlockWeights {
  /** The first global layer index of `layers`. */
  firstLayer: number;
  /** Taken one at a time (the packer reads each as it is reached), so a block need not fit in memory. */
  layers: Iterable<LayerWeights>;
  /** Present in the first block only; read when the graph reaches it, and not held after. */
  embedding?: () => Embedding;
  /** Present in the last block only; read when the graph reaches it. */
  head?: () => { outputNorm: Float32Array; output: Matrix };
  /** Divisors of the rotary frequencies, [headDim/2] (Llama 3.1's `rope_freqs`): model.json carries them. */
  ropeFactors?: Float32Array;
}

/**
 * The rotary tables a model's layers read, as model.json lists them: the global layers' first,
 * then the sliding layers' where their base or scale differ. The host makes the tables
 * (engine/rotary.ts), only as long as the context in use, and feeds them as
 * `BlockIo.rotaryCos(i)`/`rotarySin(i)`: stored for the whole context they were 67 MB a block
 * on Gemma 3 (32,768 positions).
 */
export function rotarySpecs(config: ModelConfig): { base: number; scale: number }[] {
  const specs = [{ base: config.ropeBase, scale: config.ropeScale }];
  const { sliding } = config;
  if (sliding && (sliding.ropeBase !== config.ropeBase || sliding.ropeScale !== config.ropeScale))
    specs.push({ base: sliding.ropeBase, scale: sliding.ropeScale });
  return specs;
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

/** `external`: where large weights go as they are added, beside the graph (mapped by onnxruntime, not copied). */
export function buildBlockGraph(
  config: ModelConfig,
  block: BlockWeights,
  activations: Activations,
  name: string,
  external?: ExternalWeights,
): GraphBuilder {
  const g = new GraphBuilder(name, external);
  const w = new Weights(g, activations);
  const { hidden, heads, headDim, kvHeads, rmsEpsilon, kind } = config;
  const epsilon = { f: rmsEpsilon };
  const kvDims = [1, kvHeads, 'past_sequence_length', headDim];

  let residual = block.embedding
    ? w.embed(g.input(BlockIo.inputIds, DataType.INT64, [1, 'sequence_length']), block.embedding())
    : g.input(BlockIo.hiddenIn, DataType.FLOAT, ['sequence_length', hidden]);
  if (block.embedding && kind.scaleEmbedding) {
    residual = g.op('Mul', [residual, w.constant('embedding_scale', DataType.FLOAT, [], Float32Array.of(Math.sqrt(hidden)))]);
  }
  const seqlensK = g.input(BlockIo.seqlensK, DataType.INT32, [1]);
  const totalLength = g.input(BlockIo.totalLength, DataType.INT32, []);
  // The new positions are [total - S, total) of each present cache.
  const newEnd = g.op('Cast', [g.op('Unsqueeze', [totalLength, w.int64s([0])])], { to: { i: DataType.INT64 } });
  const newStart = g.op('Sub', [newEnd, g.op('Gather', [g.op('Shape', [residual]), w.int64s([0])])]);
  const positionAxis = w.int64s([2]);
  const newKeyValues: string[] = [];
  const specs = rotarySpecs(config);
  const rotaryInputs = new Map<number, [string, string]>();
  /** Table `index`'s cos and sin, graph inputs the host feeds (declared once, where a layer first reads them). */
  const rotary = (index: number): [string, string] => {
    let inputs = rotaryInputs.get(index);
    if (!inputs) {
      const dims = ['rotary_positions', headDim / 2];
      inputs = [g.input(BlockIo.rotaryCos(index), DataType.FLOAT, dims), g.input(BlockIo.rotarySin(index), DataType.FLOAT, dims)];
      rotaryInputs.set(index, inputs);
    }
    return inputs;
  };

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
  /** A norm of a branch's output before its residual add (Gemma's post-norms). */
  const postNorm = (input: string, weight: Float32Array | undefined, label: string): string =>
    weight
      ? g.op('SimplifiedLayerNormalization', [input, w.constant(label, DataType.FLOAT, [hidden], weight)], { axis: { i: -1 }, epsilon })
      : input;
  /** RMS norm of each head of `input` [S, count·headDim]: answers [1, S, count·headDim], attention's input form. */
  const headNorm = (input: string, weight: Float32Array, count: number, label: string): string => {
    const gamma = w.constant(label, DataType.FLOAT, [headDim], weight);
    const heads = g.op('Reshape', [input, w.int64s([-1, headDim])]);
    const normed = g.op('SimplifiedLayerNormalization', [heads, gamma], { axis: { i: -1 }, epsilon });
    return g.op('Reshape', [normed, w.int64s([1, -1, count * headDim])]);
  };

  let layerCount = 0;
  for (const layer of block.layers) {
    const index = block.firstLayer + layerCount++;
    const at = `layer.${index}`;
    const sliding = isSlidingLayer(config, index);
    // Query, key and value side by side: GroupQueryAttention's packed input, no Split.
    let qkv = stackedLinear(w, g, norm(layer.attentionNorm, `${at}.attention_norm`), layer.qkv, `${at}.qkv`);
    if (layer.qkvBias) qkv = g.op('Add', [qkv, w.constant(`${at}.qkv_bias`, DataType.FLOAT, [layer.qkvBias.length], layer.qkvBias)]);
    let attentionInputs = [g.op('Unsqueeze', [qkv, w.int64s([0])]), '', ''];
    if (layer.queryNorm && layer.keyNorm) {
      // onnxruntime's CPU GroupQueryAttention takes no q/k norm weights (CUDA and WebGPU only): the norms go before it.
      const [q, k, v] = g.node(
        'Split',
        [qkv, w.int64s([heads * headDim, kvHeads * headDim, kvHeads * headDim])],
        { axis: { i: -1 } },
        { outputs: 3 },
      );
      attentionInputs = [
        headNorm(q!, layer.queryNorm, heads, `${at}.query_norm`),
        headNorm(k!, layer.keyNorm, kvHeads, `${at}.key_norm`),
        g.op('Unsqueeze', [v!, w.int64s([0])]),
      ];
    }
    const [cosCache, sinCache] = rotary(sliding ? specs.length - 1 : 0);
    const pastKey = g.input(BlockIo.pastKey(index), DataType.FLOAT, kvDims);
    const pastValue = g.input(BlockIo.pastValue(index), DataType.FLOAT, kvDims);
    const [attention, presentKey, presentValue] = g.node(
      'GroupQueryAttention',
      [...attentionInputs, pastKey, pastValue, seqlensK, totalLength, cosCache, sinCache],
      {
        num_heads: { i: heads },
        kv_num_heads: { i: kvHeads },
        do_rotary: { i: 1 },
        rotary_interleaved: { i: kind.rotaryInterleaved ? 1 : 0 },
        scale: { f: config.attentionScale },
        ...(config.attentionSoftcap ? { softcap: { f: config.attentionSoftcap } } : {}),
        // onnxruntime's window counts the positions before the query's own. Measured against
        // llama.cpp (node-llama-cpp 3.22.1) on Gemma 2 and 3 models with a 32-position window:
        // a window of `window` agrees at every position, `window - 1` parts from position 32 on.
        ...(sliding ? { local_window_size: { i: config.sliding!.window } } : {}),
      },
      { outputs: 3, domain: 'microsoft' },
    );
    for (const present of [presentKey!, presentValue!]) newKeyValues.push(g.op('Slice', [present, newStart, newEnd, positionAxis]));
    const attended = w.linear(g.op('Squeeze', [attention!, w.int64s([0])]), layer.attentionOutput, `${at}.attention_output`);
    pending = postNorm(attended, layer.postAttentionNorm, `${at}.post_attention_norm`);
    const gateUp = stackedLinear(w, g, norm(layer.ffnNorm, `${at}.ffn_norm`), layer.gateUp, `${at}.gate_up`);
    const [gate, up] = g.node('Split', [gateUp, w.int64s([config.ffn, config.ffn])], { axis: { i: -1 } }, { outputs: 2 });
    const activatedGate =
      kind.activation === 'silu'
        ? // SiLU(gate) = gate·sigmoid(gate): QuickGelu with alpha 1 is that in one node.
          g.op('QuickGelu', [gate!], { alpha: { f: 1 } }, 'microsoft')
        : g.op('Gelu', [gate!], { approximate: { s: 'tanh' } });
    const down = w.linear(g.op('Mul', [activatedGate, up!]), layer.down, `${at}.ffn_down`);
    pending = postNorm(down, layer.postFfnNorm, `${at}.post_ffw_norm`);
  }

  g.node('Concat', newKeyValues, { axis: { i: 0 } }, { outputs: [BlockIo.newKeyValues] });
  g.output(BlockIo.newKeyValues, DataType.FLOAT, [2 * layerCount, kvHeads, 'sequence_length', headDim]);

  if (block.head) {
    const head = block.head();
    const normed = norm(head.outputNorm, 'output_norm');
    // Only the last position's logits are needed to pick the next token.
    const last = g.op('Slice', [normed, w.int64s([-1]), w.int64s([Number.MAX_SAFE_INTEGER]), w.int64s([0])]);
    let logits = w.linear(last, head.output, 'output');
    if (config.finalSoftcap) {
      const cap = w.constant('final_softcap', DataType.FLOAT, [], Float32Array.of(config.finalSoftcap));
      logits = g.op('Mul', [g.op('Tanh', [g.op('Div', [logits, cap])]), cap]);
    }
    g.node('Identity', [logits], {}, { outputs: [BlockIo.logits] });
    g.output(BlockIo.logits, DataType.FLOAT, [1, config.vocabSize]);
  } else {
    // Every block holds at least one layer, so its last down projection is still pending.
    g.node('Add', [pending!, residual], {}, { outputs: [BlockIo.hiddenOut] });
    g.output(BlockIo.hiddenOut, DataType.FLOAT, ['sequence_length', hidden]);
  }
  return g;
}

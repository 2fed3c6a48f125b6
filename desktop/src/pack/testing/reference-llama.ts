/**
 * A plain TypeScript llama forward pass in float64 over dequantised weights: the oracle the
 * packed ONNX blocks are checked against. Slow and simple on purpose; tests use tiny models.
 */
import { readTensorBytes, type GgufFile } from '../gguf';
import type { ModelConfig } from '../model-config';
import { dequantize } from '../quant';

type Weights = Map<string, Float32Array>;

export async function dequantizeAll(file: GgufFile): Promise<Weights> {
  const weights: Weights = new Map();
  for (const info of file.tensors.values()) {
    const count = info.dims.reduce((a, b) => a * b, 1);
    weights.set(info.name, dequantize(info.type, await readTensorBytes(file, info), count));
  }
  return weights;
}

/** out[n] = Σ_k W[n·k + k]·x[k] for a ggml matrix of n rows of k. */
function matVec(w: Float32Array, x: number[], n: number): number[] {
  const k = x.length;
  const out = new Array<number>(n).fill(0);
  for (let row = 0; row < n; row++) {
    let sum = 0;
    for (let i = 0; i < k; i++) sum += w[row * k + i]! * x[i]!;
    out[row] = sum;
  }
  return out;
}

function rmsNorm(x: number[], weight: Float32Array, epsilon: number): number[] {
  const scale = 1 / Math.sqrt(x.reduce((sum, v) => sum + v * v, 0) / x.length + epsilon);
  return x.map((v, i) => v * scale * weight[i]!);
}

/** Rotates adjacent pairs (interleaved rotary), as ggml's llama graph does. */
function rotate(vector: number[], heads: number, headDim: number, position: number, base: number): number[] {
  const out = [...vector];
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < headDim / 2; i++) {
      const angle = position * Math.pow(base, (-2 * i) / headDim);
      const a = vector[h * headDim + 2 * i]!;
      const b = vector[h * headDim + 2 * i + 1]!;
      out[h * headDim + 2 * i] = a * Math.cos(angle) - b * Math.sin(angle);
      out[h * headDim + 2 * i + 1] = a * Math.sin(angle) + b * Math.cos(angle);
    }
  }
  return out;
}

/** Logits of the last position after reading `ids`. */
export function referenceLogits(weights: Weights, config: ModelConfig, ids: readonly number[]): Float32Array {
  const { hidden, heads, kvHeads, headDim, ffn, rmsEpsilon: eps, ropeBase } = config;
  const get = (name: string) =>
    weights.get(name) ??
    (() => {
      throw new Error(`no tensor ${name}`);
    })();
  const embedding = get('token_embd.weight');
  const states = ids.map((id) => Array.from(embedding.subarray(id * hidden, (id + 1) * hidden)));
  for (let l = 0; l < config.layers; l++) {
    const at = (name: string) => get(`blk.${l}.${name}.weight`);
    const keys: number[][] = [];
    const values: number[][] = [];
    const queries: number[][] = [];
    for (const [t, x] of states.entries()) {
      const h = rmsNorm(x, at('attn_norm'), eps);
      queries.push(rotate(matVec(at('attn_q'), h, hidden), heads, headDim, t, ropeBase));
      keys.push(rotate(matVec(at('attn_k'), h, kvHeads * headDim), kvHeads, headDim, t, ropeBase));
      values.push(matVec(at('attn_v'), h, kvHeads * headDim));
    }
    for (const [t, x] of states.entries()) {
      const attended = new Array<number>(hidden).fill(0);
      for (let h = 0; h < heads; h++) {
        const kv = Math.floor(h / (heads / kvHeads));
        const scores = keys.slice(0, t + 1).map((k) => {
          let dot = 0;
          for (let i = 0; i < headDim; i++) dot += queries[t]![h * headDim + i]! * k[kv * headDim + i]!;
          return dot / Math.sqrt(headDim);
        });
        const top = Math.max(...scores);
        const exps = scores.map((s) => Math.exp(s - top));
        const total = exps.reduce((a, b) => a + b, 0);
        for (const [s, e] of exps.entries())
          for (let i = 0; i < headDim; i++) attended[h * headDim + i]! += (e / total) * values[s]![kv * headDim + i]!;
      }
      const projected = matVec(at('attn_output'), attended, hidden);
      for (let i = 0; i < hidden; i++) x[i]! += projected[i]!;
      const h2 = rmsNorm(x, at('ffn_norm'), eps);
      const gate = matVec(at('ffn_gate'), h2, ffn);
      const up = matVec(at('ffn_up'), h2, ffn);
      const activated = gate.map((g, i) => (g / (1 + Math.exp(-g))) * up[i]!);
      const down = matVec(at('ffn_down'), activated, hidden);
      for (let i = 0; i < hidden; i++) x[i]! += down[i]!;
    }
  }
  const last = rmsNorm(states[states.length - 1]!, get('output_norm.weight'), eps);
  const head = weights.get('output.weight') ?? embedding;
  return Float32Array.from(matVec(head, last, config.vocabSize));
}

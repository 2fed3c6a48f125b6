/**
 * Conformance against llama.cpp, shared by the spec files that run synthetic models: the same
 * token ids through a packed model and through llama.cpp on a GGUF, and the share of positions
 * whose top token agrees. llama.cpp is run once per GGUF however many packs compare with it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalModel } from '../../engine/local-model';
import { seededRandom } from '../../engine/sampler';
import { packModel } from '../packer';
import type { Activations } from '../matrices';
import { llamaCppTopLogits, type TopLogits } from '@meshwork/testkit/desktop/llama-cpp-reference';

/** More than any synthetic sliding window (32) many times over, and at least the 256. */
export const POSITIONS = 288;
const TOP = 5;

/** The token ids every comparison feeds: random over the vocabulary, the same every run. */
export function conformanceTokens(vocabSize: number): number[] {
  const random = seededRandom(7);
  return Array.from({ length: POSITIONS }, () => Math.floor(random() * vocabSize));
}

function topOf(logits: Float32Array, k: number): TopLogits {
  const ids = Array.from(logits.keys())
    .sort((a, b) => logits[b]! - logits[a]!)
    .slice(0, k);
  return ids.map((id) => [id, logits[id]!]);
}

/** Our engine's top-k after each position, one position a pass (the cache carries the rest). */
export async function ourTopLogits(directory: string, tokens: readonly number[]): Promise<TopLogits[]> {
  const model = await LocalModel.load(directory);
  try {
    const out: TopLogits[] = [];
    for (const token of tokens) out.push(topOf(await model.forward([token]), TOP));
    return out;
  } finally {
    await model.release();
  }
}

/** A model's GGUF, and the same weights as F32 (the same path when it is all F32 already). */
export interface ModelFiles {
  gguf: string;
  exact: string;
}

/** GGUFs written once into `work`, and llama.cpp's top-k on each, evaluated once however many packs compare with it. */
export class LlamaCpp {
  private readonly files = new Map<string, Promise<ModelFiles>>();
  private readonly answers = new Map<string, Promise<TopLogits[]>>();
  constructor(private readonly work: string) {}

  /** The files of the model called `name`, written from `build` on first use. */
  model(name: string, build: () => { gguf: Buffer; exact: Buffer }): Promise<ModelFiles> {
    let files = this.files.get(name);
    if (!files) this.files.set(name, (files = this.write(name, build())));
    return files;
  }

  private async write(name: string, built: { gguf: Buffer; exact: Buffer }): Promise<ModelFiles> {
    const gguf = join(this.work, `${name}.gguf`);
    await writeFile(gguf, built.gguf);
    if (built.exact === built.gguf) return { gguf, exact: gguf };
    const exact = join(this.work, `${name}-exact.gguf`);
    await writeFile(exact, built.exact);
    return { gguf, exact };
  }

  /** llama.cpp's top-k after each of `tokens` (the same tokens every call) on the GGUF at `path`. */
  topLogits(path: string, tokens: readonly number[]): Promise<TopLogits[]> {
    let answer = this.answers.get(path);
    if (!answer) this.answers.set(path, (answer = llamaCppTopLogits(path, tokens, TOP)));
    return answer;
  }
}

/** Packs the GGUF into `out` and answers our top-k on `tokens`. */
export async function packAndRun(
  gguf: string,
  out: string,
  blocks: number,
  activations: Activations,
  tokens: readonly number[],
): Promise<TopLogits[]> {
  await packModel({ gguf, out, blocks, activations });
  return ourTopLogits(out, tokens);
}

const show = (top: TopLogits) => top.map(([id, logit]) => `${id} (${logit.toFixed(4)})`).join(', ');

/** Top-1 agreement of ours with theirs, and where they first part: the position and both top-5 lists. */
export function agreement(ours: TopLogits[], theirs: TopLogits[]): { share: number; report: string } {
  if (ours.length !== theirs.length) throw new Error(`${ours.length} positions of ours against ${theirs.length} of llama.cpp`);
  const same = (i: number) => ours[i]![0]![0] === theirs[i]![0]![0];
  const agreeing = ours.filter((_, i) => same(i)).length;
  const first = ours.findIndex((_, i) => !same(i));
  const report =
    `top-1 agreement ${agreeing}/${ours.length}` +
    (first < 0
      ? ''
      : `; first disagreement at position ${first}:\n  ours:      ${show(ours[first]!)}\n  llama.cpp: ${show(theirs[first]!)}`);
  return { share: agreeing / ours.length, report };
}

/** Fails, printing the first disagreement, when fewer than `bound` of the positions agree. */
export function expectAgreement(ours: TopLogits[], theirs: TopLogits[], bound: number, what: string): void {
  const { share, report } = agreement(ours, theirs);
  if (share < bound) throw new Error(`${what}: ${report} (at least ${bound} wanted)`);
}

import { freeMemoryBytes } from '../platform/free-memory';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { DataType, GraphBuilder } from '../../pack/onnx/graph';
import type { LanNodeReport, LanShareReport } from '@meshwork/contracts';
import type { DesktopRuntime } from '../host';
import { BlockWorker } from './block-worker';

/** The product the speed is measured on: a 4-bit matrix of a block's shape, 576 by 4096. */
const K = 576;
const N = 4096;
const QUANT_BLOCK = 32;

/** An ONNX model of one MatMulNBits with 4-bit weights and int8 activations, as the packer makes a block's products. */
let productModelBytes: Uint8Array | null = null;
function productModel(): Uint8Array {
  if (productModelBytes) return productModelBytes;
  const graph = new GraphBuilder('meshwork speed');
  const x = graph.input('x', DataType.FLOAT, [1, K]);
  const blocks = K / QUANT_BLOCK;
  const weights = new Uint8Array(N * blocks * (QUANT_BLOCK / 2)).map((_, i) => (i * 7919) & 0xff);
  const scales = new Float32Array(N * blocks).fill(0.01);
  const [y] = graph.node(
    'MatMulNBits',
    [
      x,
      graph.initializer('B', { dataType: DataType.UINT8, dims: [N, blocks, QUANT_BLOCK / 2], data: weights }),
      graph.initializer('scales', { dataType: DataType.FLOAT, dims: [N, blocks], data: scales }),
    ],
    { K: { i: K }, N: { i: N }, bits: { i: 4 }, block_size: { i: QUANT_BLOCK }, accuracy_level: { i: 4 } },
    { outputs: ['y'], domain: 'microsoft' },
  );
  graph.output(y!, DataType.FLOAT, [1, N]);
  return (productModelBytes = graph.model().toBuffer());
}

let best = 0;
let measuring: Promise<number> | null = null;

/**
 * This device's speed: multiply-adds a microsecond (millions a second) of onnxruntime's own 4-bit
 * product on one thread, the kernel the blocks spend their time in, over this process's CPU
 * time. Measured again each time it is asked (hosting, joining, reporting, planning; 40 ms), answering the
 * best figure so far: another process on the same core (a hyperthread) only ever makes it lower,
 * so the best is the machine's. The kernel, because a JavaScript loop measured the JIT as much
 * as the machine (equal devices differed by half); CPU time rather than the clock's, because a
 * machine busy for a moment is not a slower machine.
 */
export function measureSpeed(): Promise<number> {
  if (pinned !== null) return Promise.resolve(pinned);
  measuring ??= (async () => {
    const session = await InferenceSession.create(productModel(), { intraOpNumThreads: 1, interOpNumThreads: 1 });
    try {
      const feeds = {
        x: new Tensor(
          'float32',
          new Float32Array(K).map((_, i) => Math.sin(i)),
          [1, K],
        ),
      };
      for (let run = 0; run < 3; run++) await session.run(feeds);
      const runs = 8;
      for (let round = 0; round < 7; round++) {
        const started = process.cpuUsage();
        for (let run = 0; run < runs; run++) await session.run(feeds);
        const used = process.cpuUsage(started);
        best = Math.max(best, Math.round((runs * K * N) / Math.max(1, used.user + used.system)));
      }
      return best;
    } finally {
      measuring = null;
      await session.release();
    }
  })();
  return measuring;
}

/**
 * The best speed `measureSpeed` found, 0 before the first measurement (a device measures when it
 * starts hosting, joins or reports; one that never uses a network never loads the kernel for it).
 */
export function measuredSpeed(): number {
  return pinned ?? best;
}

let pinned: number | null = null;

/**
 * A fixed speed in place of measuring, for tests that need a known plan: several hosts sharing
 * a test machine's cores measure one another as much as themselves, and a device measured a
 * third as fast is rightly given no blocks.
 */
export function pinSpeed(speed: number): void {
  pinned = speed;
}

/**
 * What this device tells its host: free memory, speed (measured again), the models it has
 * installed and may run, those its plan lets it run (it fetches its share of one), and its share.
 */
export async function nodeReport(host: DesktopRuntime, share: LanShareReport | null = null): Promise<LanNodeReport> {
  await measureSpeed();
  const state = host.state();
  const models = state.serving.allowed
    ? state.models.filter((m) => m.allowed && m.status === 'installed').map(({ name, version }) => ({ name, version }))
    : [];
  const entitled = state.serving.allowed ? (host.entitlements?.models ?? []).map(({ name, version }) => ({ name, version })) : [];
  return { free_memory_bytes: freeMemoryBytes() + BlockWorker.heldMemoryBytes, speed: measuredSpeed(), models, entitled, share };
}

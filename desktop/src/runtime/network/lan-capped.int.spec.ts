/**
 * @jest-environment ./desktop/testing/native-arrays.environment.cjs
 *
 * Issue 34, section 3: three capped machines run one model none of them can hold. Three hosts in
 * network namespaces (lan-fixture.ts), each in a cgroup v1 memory group capped below the whole
 * package and above a third of it: TinyLlama's shape with random Q4_0 weights (capped-model.ts,
 * about 620 MB as GGUF, 720 MB packed in 6 blocks), made once into the machine's cache.
 *
 * The studio installs it whole from the platform (disk is not what is capped) and creates the
 * network: alone it refuses, saying how much more memory it needs. Two members join without
 * installing it; they fetch only their blocks' files from the studio over the LAN, and the greedy
 * answer to a fixed prompt equals llama.cpp's on the same GGUF in one uncapped process, token
 * for token. Then: where each file came from, the platform's downloads (one of each file, by the
 * studio), each host's peak RSS against the largest share it held, no OOM, and a member killed
 * mid-answer: with the page cache the kernel would reclaim counted as free, two capped hosts can
 * sometimes hold the model, so either outcome is right (measured: memory_short within 0.2 s in
 * one run, a reassignment and llama.cpp's answer within 11 to 14 s in six).
 *
 * Measured (two cores shared with other work): cold 79 s (the model written in 3.5 s and packed
 * in 18 s, into ~/.cache/meshwork/capped-model), warm 65 to 110 s.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import { type HostState, ModelPackageManifest } from '@meshwork/contracts';
import type { NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { cappedModel, type CappedModel } from '@meshwork/testkit/desktop/capped-model';
import { installModel, type Lan, startLan } from '@meshwork/testkit/desktop/lan-fixture';
import type { LanHost } from '@meshwork/testkit/desktop/lan-host';
import { llamaCppGreedy } from '@meshwork/testkit/desktop/llama-cpp-reference';
import { llamaCppTokenize } from '@meshwork/testkit/desktop/llama-cpp-tokenizer';
import { uploadPackage } from '@meshwork/testkit/desktop/package-upload';
import { Tokenizer } from '../../engine/tokenizer/tokenizer';

/**
 * Chosen for its margins: random weights have no sure answer, and llama.cpp rounds the
 * activations of every quantised matrix to 8 bits (Q4_0 by q8_0), which moves the logits of
 * this model by up to about 0.12 from our fp32 ones. Of the first open prompts tried, half parted
 * from llama.cpp within 16 tokens at a near tie. This one is the only one of 110 ("Meshwork
 * prompt N: …") whose top two logits stay at least 0.25 apart in our engine along all 16
 * (measured: at least 0.23 in llama.cpp, whose top logits are within 0.075 of ours there).
 */
const PROMPT = 'Meshwork prompt 108: one model, three devices.';
const COUNT = 16;
/**
 * A host with no model: Node, the transpiler the agent runs under, onnxruntime, the LAN and api
 * clients. Measured: 194 to 215 MB, the peak RSS of an idle signed-in agent (checked below).
 */
const RUNTIME_BYTES = 260e6;

describe('three capped machines run a model none of them can hold', () => {
  let lan: Lan;
  let model: CappedModel;
  let manifest: ModelPackageManifest;
  let uploaded: Awaited<ReturnType<typeof uploadPackage>>;
  let reference: { prompt: number[]; answer: number[]; text: string };
  let capBytes: number;
  let hosts: Record<'studio' | 'laptop' | 'workstation', LanHost>;
  let owner: Awaited<ReturnType<NetworksWorld['customer']>>;
  let key: string;
  let networkId: string;

  const openai = () => new OpenAI({ apiKey: key, baseURL: hosts.studio.openai, maxRetries: 0, timeout: 90_000 });
  const members = (state: HostState) => state.network?.members ?? [];
  const member = (state: HostState, name: string) => members(state).find((m) => m.name === name)!;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const planLine = (state: HostState) =>
    members(state)
      .map((m) => `${m.name} ${m.blocks.join(',')} (free ${mb(m.free_memory_bytes)})`)
      .join('; ');
  const fileBytes = (name: string) => uploaded.files.find((f) => f.name === name)!.bytes;
  /**
   * The largest share each device held, as the studio saw the plans: a device's peak RSS is
   * bounded by 1.2x the weights of the blocks it held plus its fixed part, and the plan may pass
   * through shares larger than the last (with two devices online, while the third joins or after
   * one is killed, when two can hold the model).
   */
  const held = new Map<string, { bound: number; plans: Set<string> }>();
  let watching = false;
  const noteShares = (state: HostState) => {
    for (const { name, blocks, share } of members(state)) {
      if (!share || blocks.length === 0 || share.memory.weights_bytes === 0) continue;
      const seen = held.get(name) ?? { bound: 0, plans: new Set<string>() };
      seen.bound = Math.max(seen.bound, 1.2 * share.memory.weights_bytes + share.memory.fixed_bytes);
      seen.plans.add(`${blocks.join(',')} (${mb(share.memory.weights_bytes)} + ${mb(share.memory.fixed_bytes)})`);
      held.set(name, seen);
    }
  };
  /** Notes the plans from now until afterAll, a few times a second. */
  const watchShares = async () => {
    watching = true;
    while (watching) {
      const state = await hosts.studio.state().catch(() => null);
      if (state) noteShares(state);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  /**
   * Each host's peak RSS (VmHWM) within 1.2x the weights of the largest share it held plus its
   * fixed part, and its cgroup never at the OOM killer; logs what its cgroup charged (page cache included).
   */
  async function expectMemoryWithinShares(names: ('studio' | 'laptop' | 'workstation')[]): Promise<void> {
    noteShares(await hosts.studio.state());
    const measured = await Promise.all(
      names.map(async (name) => {
        const host = hosts[name];
        const cgroup = host.cgroup!;
        const [peak, cgroupPeak, oom, stat] = await Promise.all([
          host.peakRss(),
          cgroup.peakBytes(),
          readFile(join(cgroup.path, 'memory.oom_control'), 'utf8'),
          readFile(join(cgroup.path, 'memory.stat'), 'utf8'),
        ]);
        const charged = (key: string) => mb(Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(stat)?.[1] ?? 0));
        const share = held.get(host.name);
        console.log(
          `${name}: held ${[...(share?.plans ?? [])].join(' then ')}; peak RSS ${mb(peak)} (bound ${mb(share?.bound ?? 0)}), ` +
            `cgroup peak ${mb(cgroupPeak)} of ${mb(capBytes)} (now rss ${charged('total_rss')}, mapped files ${charged('total_mapped_file')}, inactive files ${charged('total_inactive_file')})`,
        );
        return { bound: share?.bound ?? 0, peak, oom };
      }),
    );
    for (const { bound, peak, oom } of measured) {
      expect(bound).toBeGreaterThan(0);
      expect(peak).toBeLessThanOrEqual(bound);
      expect(oom).toMatch(/^oom_kill 0$/m);
      expect(oom).toMatch(/^under_oom 0$/m);
    }
  }

  /** The package files a device holding `blocks` needs. */
  const filesOf = (blocks: number[]) => [
    'model.json',
    'tokenizer.json',
    ...blocks.flatMap((b) => [manifest.blocks[b]!.file, manifest.blocks[b]!.weights!.file]),
  ];

  beforeAll(async () => {
    const started = performance.now();
    const phases: string[] = [];
    const phase = (what: string) => phases.push(`${what} ${((performance.now() - started) / 1000).toFixed(1)} s`);
    model = await cappedModel();
    phase('model');
    console.log(
      `capped model: GGUF ${mb(model.ggufBytes)} (written in ${(model.writeMs / 1000).toFixed(1)} s), package ${mb(model.packageBytes)} (packed in ${(model.packMs / 1000).toFixed(1)} s)`,
    );
    manifest = ModelPackageManifest.parse(JSON.parse(await readFile(join(model.package, 'model.json'), 'utf8')));
    // Below the whole package, above a third of it: a third's weights at 1.2x, the runtime, and a margin for the imbalance of 6 blocks over 3.
    capBytes = Math.round(RUNTIME_BYTES + 1.2 * 1.25 * (model.packageBytes / 3));
    expect(capBytes).toBeLessThan(model.packageBytes);
    expect(capBytes).toBeGreaterThan(model.packageBytes / 3);

    // The reference: llama.cpp in child processes of their own, uncapped, their memory freed at exit;
    // on the CPU while the machines below wait on uploads and downloads.
    const tokenizer = Tokenizer.fromJson(JSON.parse(await readFile(join(model.package, 'tokenizer.json'), 'utf8')));
    const prompt = tokenizer.encode(PROMPT);
    const referenceDone = (async () => {
      expect(await llamaCppTokenize(model.gguf, [PROMPT])).toEqual([prompt]);
      const answer = await llamaCppGreedy(model.gguf, prompt, COUNT);
      reference = { prompt, answer, text: tokenizer.decode(answer) };
      phase('llama.cpp');
    })();
    referenceDone.catch(() => undefined); // awaited below; a failure there must not go unhandled meanwhile

    lan = await startLan(3);
    uploaded = await uploadPackage(lan.world, model.package, { stem: 'capped', displayName: 'Capped TinyLlama shape', plans: ['free'] });
    phase('uploaded');
    owner = await lan.world.customer('free');
    hosts = await lan.startHosts(
      { studio: 'm1', laptop: 'm2', workstation: 'm3' },
      { email: owner.email, model: uploaded.name },
      { speed: 100, memoryLimitBytes: capBytes },
    );
    phase('hosts started and signed in');
    const idle = await Promise.all(Object.values(hosts).map((host) => host.peakRss()));
    console.log(`cap ${mb(capBytes)} per host; idle hosts' peak RSS ${idle.map(mb).join(', ')}`);
    expect(Math.max(...idle)).toBeLessThan(RUNTIME_BYTES);

    // Only the studio installs the model: disk is not what is capped.
    await installModel(hosts.studio, uploaded.name);
    phase('installed');
    key = (await hosts.studio.call('POST', '/host/api-keys', { name: 'Office apps' })).body.key as string;
    await referenceDone;
    console.log(`set up: ${phases.join(', ')}`);
  }, 400_000);

  afterAll(async () => {
    watching = false;
    await lan?.close();
  }, 60_000);

  it('refuses the model on the studio alone, saying how much more memory the network needs', async () => {
    expect((await hosts.studio.call('POST', '/host/network/create', { name: 'Office', model: uploaded.name })).status).toBe(200);
    const short = await hosts.studio.until((s) => s.network?.message?.code === 'memory_short', 30_000, 'memory_short');
    networkId = short.network!.id;
    const message = short.network!.message as { code: 'memory_short'; model: string; needed_bytes: number };
    expect(message.model).toBe(uploaded.name);
    // More than the whole package less what the studio can give it, less than the whole package again.
    const plausible = (bytes: number) => {
      expect(bytes).toBeGreaterThan(model.packageBytes - capBytes);
      expect(bytes).toBeLessThan(2 * model.packageBytes);
    };
    plausible(message.needed_bytes);
    // The api says it in words, from the free memory at the moment of the request (a page cache may have shrunk since).
    const refused = await openai()
      .completions.create({ model: uploaded.name, prompt: PROMPT, temperature: 0, max_tokens: COUNT })
      .then(
        () => null,
        (error: Error & { status?: number }) => error,
      );
    expect(refused?.status).toBe(503);
    const words = new RegExp(`cannot hold ${uploaded.name} together: they need (\\d+) MB more free memory`).exec(refused!.message);
    expect(words).not.toBeNull();
    plausible(Number(words![1]) * 1e6);
  }, 60_000);

  it('answers with two members that never installed it, token for token as llama.cpp', async () => {
    void watchShares();
    const code = (await hosts.studio.state()).network!.join_code!.code;
    for (const host of [hosts.laptop, hosts.workstation]) {
      expect((await host.call('POST', '/host/network/join', { network_id: networkId, code })).status).toBe(200);
      await host.until((s) => s.network?.connected === true, 15_000, 'connected to the studio');
    }
    // Planned across the three: each member fetches its blocks' files from the studio, then loads them.
    const planned = await hosts.studio.until(
      (s) => s.network?.message === null && members(s).length === 3 && members(s).every((m) => m.online && m.blocks.length > 0),
      120_000,
      'the model planned across three devices',
    );
    console.log(`plan: ${planLine(planned)}`);

    const started = performance.now();
    const answer = await openai().completions.create({ model: uploaded.name, prompt: PROMPT, temperature: 0, max_tokens: COUNT });
    console.log(`answer in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(answer.choices[0]?.text)}`);
    expect(answer.usage).toMatchObject({ prompt_tokens: reference.prompt.length, completion_tokens: COUNT });
    expect(answer.choices[0]?.text).toBe(reference.text);
    for (const host of [hosts.laptop, hosts.workstation])
      expect((await host.state()).models.find((m) => m.name === uploaded.name)?.status).not.toBe('installed');
  }, 240_000);

  it('shows each member’s files fetched from the studio over the LAN, its disk about its share, and one platform download of each file', async () => {
    const studio = await hosts.studio.until(
      (s) =>
        members(s)
          .filter((m) => m.role === 'client')
          .every((m) => m.share?.transfer === null && m.share.files.length > 0),
      20_000,
      'the members’ shares reported',
    );
    for (const m of members(studio).filter((m) => m.role === 'client')) {
      const share = m.share!;
      expect(share.files.map((f) => f.name).sort()).toEqual(expect.arrayContaining(filesOf(m.blocks).sort()));
      expect(share.files.every((f) => f.source === 'lan')).toBe(true);
      const held = filesOf(m.blocks).reduce((sum, name) => sum + fileBytes(name), 0);
      // Its blocks, the manifest and the tokenizer: nothing of the other blocks.
      expect(share.disk_bytes).toBeGreaterThanOrEqual(held);
      expect(share.disk_bytes).toBeLessThan(held + 1e6);
      console.log(
        `${m.name}: blocks ${m.blocks.join(',')}, disk ${mb(share.disk_bytes)} of the package's ${mb(model.packageBytes)}, all from the LAN`,
      );
    }
    const history = (await owner.get('/downloads/history/').expect(200)).body as { downloads: { version: string; fileSize: number }[] };
    const downloads = history.downloads.filter((d) => d.version === `${uploaded.name}@1.0.0`).map((d) => d.fileSize);
    expect(downloads.sort((a, b) => a - b)).toEqual(uploaded.files.map((f) => f.bytes).sort((a, b) => a - b));
  }, 60_000);

  it('keeps each host’s peak RSS within 1.2x the weights it held plus its stated fixed part, and no cap was hit to the OOM killer', async () => {
    await expectMemoryWithinShares(['studio', 'laptop', 'workstation']);
  }, 30_000);

  it('ends an answer whose member is killed mid-answer in a clear error, or reassigns its blocks and answers, within seconds', async () => {
    const stream = await openai().completions.create({
      model: uploaded.name,
      prompt: PROMPT,
      temperature: 0,
      max_tokens: COUNT,
      stream: true,
    });
    const pieces: string[] = [];
    const killed = { at: 0 };
    const outcome = await (async () => {
      try {
        for await (const chunk of stream) {
          pieces.push(chunk.choices[0]?.text ?? '');
          if (pieces.length === 2) {
            killed.at = performance.now();
            hosts.laptop.kill();
          }
        }
        return null;
      } catch (error) {
        return error as Error;
      }
    })();
    const ended = performance.now() - killed.at;
    expect(killed.at).toBeGreaterThan(0);
    console.log(
      `after the kill: ${outcome ? `error "${outcome.message}"` : `answered "${pieces.join('')}"`} in ${(ended / 1000).toFixed(1)} s`,
    );
    if (outcome) {
      // The studio and the workstation cannot hold it: the network says how much more memory, and so does the api.
      const short = await hosts.studio.until((s) => s.network?.message?.code === 'memory_short', 15_000, 'memory_short');
      expect(member(short, 'Laptop').online).toBe(false);
      const again = openai().completions.create({ model: uploaded.name, prompt: PROMPT, temperature: 0, max_tokens: COUNT });
      await expect(again).rejects.toMatchObject({
        message: expect.stringMatching(/cannot hold .* together: they need \d+ MB more free memory/),
      });
    } else {
      // Reassigned within seconds: the answer is still llama.cpp's.
      expect(pieces.join('')).toBe(reference.text);
      console.log(`replanned: ${planLine(await hosts.studio.state())}`);
      // What the two hold now still fits under their caps.
      await expectMemoryWithinShares(['studio', 'workstation']);
    }
    // Reassigning, the two fetch the lost blocks from the studio (up to 300 MB at the share rate) and load them: 11 to 14 s measured.
    expect(ended).toBeLessThan(30_000);
  }, 120_000);
});

/**
 * bench:network's capped stage: a model no single device holds. Three desktop hosts, each in its
 * own network namespace and its own memory cgroup (a limit below the whole model, above a third
 * of it plus the runtime), serve it together; llama.cpp runs the same GGUF on one device capped
 * the same way (it pages the weights from disk) and on one uncapped device. Measured: decode
 * tokens/s of each and their ratios; what separate machines would give (each device's CPU time a
 * token, from /proc: a single stream's pipeline runs one device at a time, so a token costs the
 * sum); each device's peak RSS against its share of the weights and its stated fixed part; the
 * bytes each device took from the platform and from its LAN host, and the platform's own download
 * log; the time from "create network" to the first token.
 *
 * Disk: the package is packed into a scratch folder (unless one is given), uploaded, and the
 * scratch removed; the object store then holds one copy, the host one, the members their shares.
 * On a disk too small for that the run is lean (lean-disk.ts); on one too small for that it
 * refuses to start. Everything this stage made is removed when it ends, breaks or is interrupted:
 * scratch, the model's objects, the hosts' data folders, the cgroups.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type IncomingMessage, request } from 'node:http';
import { constants, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HostNetworkMember, ModelManifest, ModelPackageManifest } from '@meshwork/contracts';
import type { NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { leftUnder, minioClient } from '@meshwork/testkit/api/upload-kit';
import { installModel, startLan } from '@meshwork/testkit/desktop/lan-fixture';
import type { LanHost } from '@meshwork/testkit/desktop/lan-host';
import { createMemoryCgroup, memoryCgroupsAvailable, type MemoryCgroup, sweepMemoryCgroups } from '@meshwork/testkit/desktop/memory-cgroup';
import { uploadPackage } from '@meshwork/testkit/desktop/package-upload';
import { Tokenizer } from '../../../desktop/src/engine/tokenizer/tokenizer';
import { downloadConsuming, uploadConsuming } from './lean-disk';
import { cpuSeconds, dropPageCache, hostPid, peakRssOf } from './processes';

export type Row = [string, string, string, string];
type ManifestFile = ModelManifest['files'][number];

const root = resolve(__dirname, '..', '..', '..');
const GB = 1e9;
const gb = (bytes: number) => `${(bytes / GB).toFixed(2)} GB`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const verdict = (met: boolean) => (met ? 'PASS' : 'MISS');
const PROMPT = 'The lighthouse keeper climbed the stairs at dusk and looked out over the grey sea, where';
/** The runtime a device needs beside its blocks (Node, onnxruntime, the host, a KV cache), for the cap's floor. */
const RUNTIME_BYTES = 300e6;
/** The planner leaves a fifth of a device's free memory to the rest (assign-blocks.ts' MEMORY_HEADROOM). */
const PLANNER_HEADROOM = 0.8;
/** A package against its GGUF, at most (Q4_K_M: its Q6_K tensors become 8-bit codes, 1.43×). */
const PACKAGE_PER_GGUF = 1.45;

export interface CappedModel {
  label: string;
  gguf: string;
  /** A packed package to upload as it is (kept); absent: packed here into scratch, removed after the upload. */
  packageDir?: string;
  blocks: number;
  activations: 'int8' | 'fp32';
}

export interface CappedSettings {
  world: NetworksWorld;
  model: CappedModel;
  /** node-llama-cpp's entry module (file URL). */
  llamaCpp: string;
  decodeTokens: number;
  runs: number;
  /** The devices' memory limit; by default 0.9 of the GGUF, raised to hold a third and the runtime. */
  capBytes?: number;
  /** Lean on disk (cappedDiskPlan): scratch files go as uploaded, the store's objects as the host takes them. */
  lean: boolean;
}

/**
 * Whether the stage can run here (root, cgroups, the disk): `refusal` says why not. The disk holds
 * at most at once the packing scratch and the object store's copy (while uploading), then the
 * store's copy, the host's and the two members' thirds, plus 1 GB for the rest. When that does not
 * fit but a lean run does (lean-disk.ts: about one copy and a file, then the host's copy and the
 * members' shares), `lean` says to run so.
 */
export function cappedDiskPlan(model: CappedModel): { refusal: string | null; lean: boolean } {
  const refuse = (refusal: string) => ({ refusal, lean: false });
  if (process.getuid?.() !== 0) return refuse('the capped stage needs root (memory cgroups, network namespaces, dropping the page cache)');
  if (!memoryCgroupsAvailable()) return refuse("the capped stage needs cgroup v1's memory controller at /sys/fs/cgroup/memory");
  if (!existsSync(model.gguf)) return refuse(`no GGUF at ${model.gguf}`);
  const packageBytes = model.packageDir ? directoryBytes(model.packageDir) : PACKAGE_PER_GGUF * statSync(model.gguf).size;
  const scratch = model.packageDir ? 0 : 2 * packageBytes;
  const full = Math.max(scratch, (2 + 2 / 3) * packageBytes) + GB;
  // Lean: the scratch goes file by file into the store, the store's copy file by file to the host.
  const largestFile = model.packageDir ? 0 : packageBytes / 2;
  const lean = Math.max(packageBytes + largestFile, (1 + 2 / 3) * packageBytes) + GB;
  const minio = resolve(process.env.MESHWORK_INFRA_DIR ?? join(root, '.infra'), 'minio');
  let leanRun = false;
  for (const dir of [tmpdir(), existsSync(minio) ? minio : root]) {
    const { bavail, bsize } = statfsSync(dir);
    const free = bavail * bsize;
    if (free < lean)
      return refuse(
        `the capped stage on ${model.label} needs at least ${gb(lean)} free disk, ${gb(full)} to keep the object store's copy to the end (a ${gb(packageBytes)} package: the host's copy, two members' shares, the store's copy${model.packageDir ? '' : ', the packing scratch'}); ${dir} has ${gb(free)} free. Free some, or pick a smaller model (BENCH_CAPPED_MODEL=tinyllama)`,
      );
    leanRun ||= free < full;
  }
  return { refusal: null, lean: leanRun };
}

/** A package's bytes (its files: a package has no folders). */
function directoryBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

/** The child's last stdout line as JSON; rejects with its stderr when it fails. */
function jsonChild(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Record<string, number>> {
  return new Promise((resolveChild, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`${args.slice(0, 2).join(' ')} failed (${signal ?? code}): ${stderr.trim().slice(-2000)}`));
      resolveChild(JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>);
    });
  });
}

/**
 * Streams a completion; answers when its first and last text came, and the tokens it counted.
 * Over node:http rather than fetch: fetch gives up on headers after 300 s, and the first answer
 * of a new network waits for the members to fetch and load their shares before its first token.
 */
async function complete(host: LanHost, key: string, model: string, maxTokens: number, askedAt = performance.now()) {
  const body = JSON.stringify({
    model,
    prompt: PROMPT,
    temperature: 0,
    max_tokens: maxTokens,
    stream: true,
    stream_options: { include_usage: true },
  });
  const response = await new Promise<IncomingMessage>((resolveResponse, reject) =>
    request(`${host.openai}/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    })
      .once('response', resolveResponse)
      .once('error', reject)
      .end(body),
  );
  if (response.statusCode !== 200) {
    let text = '';
    for await (const piece of response.setEncoding('utf8')) text += piece as string;
    throw new Error(`completion answered ${response.statusCode}: ${text}`);
  }
  let first = 0;
  let last = 0;
  let tokens = 0;
  let buffered = '';
  for await (const piece of response.setEncoding('utf8')) {
    buffered += piece as string;
    const events = buffered.split('\n\n');
    buffered = events.pop()!;
    for (const event of events) {
      const data = event.replace(/^data: /, '');
      if (data === '[DONE]') continue;
      const chunk = JSON.parse(data) as { error?: unknown; choices: { text: string }[]; usage?: { completion_tokens: number } };
      if (chunk.error) throw new Error(`the completion failed: ${JSON.stringify(chunk.error)}`);
      if (chunk.choices[0]?.text) {
        last = performance.now();
        first ||= last;
      }
      if (chunk.usage) tokens = chunk.usage.completion_tokens;
    }
  }
  return { firstTokenMs: first - askedAt, tokens, perSecond: (tokens - 1) / ((last - first) / 1000) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function cappedStage(settings: CappedSettings): Promise<Row[]> {
  const { world, model, decodeTokens, runs } = settings;
  const rows: Row[] = [];
  const cleanup: (() => Promise<unknown>)[] = [];
  const storage = minioClient();
  let modelId: string | null = null;
  let devices: { host: LanHost; group: MemoryCgroup; pid: number }[] = [];
  // The lan stage pins this process (the api, the relays) to core 0: the capped devices share every core.
  execFileSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
  await sweepMemoryCgroups('mwbench'); // what a killed run left
  // Once, whether the stage ends, breaks or is interrupted: an 8B run leaves GBs otherwise.
  let cleaning: Promise<void> | null = null;
  const cleanAll = () =>
    (cleaning ??= (async () => {
      for (const step of cleanup.splice(0)) await step().catch((error: Error) => console.error(`cleanup: ${error.message}`));
      // The model's objects: the store held a copy of the package for this run only.
      if (modelId)
        await removeModelObjects(storage, world.subject.bucket, modelId).catch((error: Error) =>
          console.error(`cleanup: ${error.message}`),
        );
    })());
  const interrupted = (signal: NodeJS.Signals) => {
    console.log(`\ninterrupted: removing what the capped stage made (scratch, objects, hosts, cgroups)…`);
    // The lab kills the hosts as this returns: writes to their pipes fail then, and must not end the cleanup.
    process.on('uncaughtException', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
    void cleanAll().finally(() => process.exit(128 + constants.signals[signal]));
  };
  // `on`, not `once`: the LAN lab's own handler re-raises the signal when it finds itself alone.
  process.on('SIGINT', interrupted).on('SIGTERM', interrupted);
  try {
    // The package: given, or packed here (in a process of its own) into scratch.
    let packageDir = model.packageDir;
    if (!packageDir) {
      const scratch = await mkdtemp(join(tmpdir(), 'bench-network-pack-'));
      cleanup.push(() => rm(scratch, { recursive: true, force: true }));
      packageDir = join(scratch, 'package');
      console.log(`capped: packing ${model.label} in ${model.blocks} blocks, ${model.activations} activations…`);
      const packed = await jsonChild(process.execPath, [
        join(root, 'infra/bench/pack/pack-run.mjs'),
        model.gguf,
        packageDir,
        String(model.blocks),
        model.activations,
      ]);
      console.log(`  packed in ${(packed.ms! / 1000).toFixed(0)} s`);
    }
    const manifest = JSON.parse(readFileSync(join(packageDir, 'model.json'), 'utf8')) as ModelPackageManifest;
    const tokenizer = Tokenizer.fromJson(JSON.parse(readFileSync(join(packageDir, 'tokenizer.json'), 'utf8')));
    const promptIds = tokenizer.encode(PROMPT);
    const ggufBytes = statSync(model.gguf).size;
    const blockWeights = manifest.blocks.map((b) => b.weights.bytes + b.bytes);
    const modelWeights = blockWeights.reduce((a, b) => a + b, 0);

    console.log('capped: uploading the package…');
    const customer = await world.customer('pro');
    let started = performance.now();
    // Lean on disk: each scratch file goes once sent (then the scratch folder is empty).
    const uploaded =
      settings.lean && !model.packageDir
        ? await uploadConsuming(world, packageDir, { displayName: model.label, plans: ['pro'] })
        : await uploadPackage(world, packageDir, { stem: 'bench', displayName: model.label, plans: ['pro'] });
    const packageBytes = uploaded.files.reduce((sum, f) => sum + f.bytes, 0);
    modelId = uploaded.id;
    const uploadMs = performance.now() - started;
    if (!model.packageDir) await cleanup.shift()!(); // the scratch copy: the object store holds it now

    // The cap: below the whole model, above a third of it (the largest blocks a device takes, as
    // the planner counts them, with its headroom) plus the runtime.
    const third = [...manifest.blocks.map((b) => b.memoryBytes)]
      .sort((a, b) => b - a)
      .slice(0, Math.ceil(manifest.blocks.length / 3))
      .reduce((a, b) => a + b, 0);
    const floor = Math.ceil(third / PLANNER_HEADROOM + RUNTIME_BYTES);
    // 0.9, not less: at 0.8 (3.93 GB for the 8B) the host went silent for over 6 s while its block
    // loaded beside the members' transfers, they dropped and the network was short of memory.
    const cap = settings.capBytes ?? Math.max(Math.floor(0.9 * Math.min(ggufBytes, modelWeights)), floor);
    const capHoldsModel = cap >= Math.min(ggufBytes, modelWeights);
    console.log(`capped: each device capped at ${gb(cap)} (GGUF ${gb(ggufBytes)}, package weights ${gb(modelWeights)})`);

    // The LAN: three machines, each host in a memory cgroup capped at `cap` from before it runs
    // (lan-host), equal speeds (so equal shares of the work), logging (kept in memory, printed if
    // the run breaks). Closing it closes the hosts and removes their cgroups.
    process.env.MESHWORK_TEST_LOG ??= '1';
    const lan = await startLan(3, { world });
    cleanup.unshift(() => lan.close());
    const { lab } = lan;
    const hosts = await lan.startHosts(
      { office: 'm1', laptop: 'm2', desk: 'm3' },
      { email: customer.email, model: uploaded.name },
      { speed: 1, memoryLimitBytes: cap },
    );
    devices = Object.values<LanHost>(hosts).map((host) => ({ host, group: host.cgroup!, pid: hostPid(lab, host.machine) }));
    const [office, ...members] = devices.map((d) => d.host) as [LanHost, LanHost, LanHost];

    // The host takes the whole package from the platform (once per network).
    console.log('capped: the host downloads the package…');
    started = performance.now();
    if (settings.lean) {
      // Lean on disk: each object goes once the host has it; members take theirs from the host.
      console.log("capped: the object store's copy goes file by file as the host takes it (the disk holds one copy and the shares)");
      const files = (await customer.get(`/models/${uploaded.name}/manifest/`).expect(200)).body.files as ManifestFile[];
      await downloadConsuming(office, uploaded.id, uploaded.name, files, world.subject.bucket);
    } else {
      await installModel(office, uploaded.name, 1_800_000);
    }
    const hostDownloadMs = performance.now() - started;

    // From "create network" to the first token: members join, fetch their shares over the LAN, load.
    dropPageCache();
    console.log('capped: create network → first token…');
    const createdAt = performance.now();
    const created = await office.call('POST', '/host/network/create', { name: 'Bench capped', model: uploaded.name });
    if (created.status !== 200) throw new Error(`could not create the network: ${JSON.stringify(created.body)}`);
    const network = (await office.until((s) => s.network?.join_code != null, 60_000, 'the network')).network!;
    for (const member of members) {
      const joined = await member.call('POST', '/host/network/join', { network_id: network.id, code: network.join_code!.code });
      if (joined.status !== 200) throw new Error(`${member.name} could not join: ${JSON.stringify(joined.body)}`);
    }
    const key = (await office.call('POST', '/host/api-keys', { name: 'Bench' })).body.key as string;
    await office.until(
      (s) => s.network?.members.length === 3 && s.network.members.every((m) => m.online && m.blocks.length > 0),
      1_800_000,
      'every device holding blocks',
    );
    const plannedMs = performance.now() - createdAt;
    // A member may drop while the shares load (it then rejoins and the host plans again): the
    // first answer is asked again once every device holds blocks, within the same clock.
    let first: Awaited<ReturnType<typeof complete>> | null = null;
    let refused = 0;
    while (!first) {
      try {
        first = await complete(office, key, uploaded.name, decodeTokens, createdAt);
      } catch (error) {
        if (!/answered 503/.test((error as Error).message) || ++refused > 5 || performance.now() - createdAt > 1_200_000) throw error;
        console.log(
          `capped: the network could not answer yet (${(error as Error).message.slice(0, 160)}); asking again once it holds the model`,
        );
        await new Promise((r) => setTimeout(r, 2000));
        await office.until(
          (s) => s.network?.members.length === 3 && s.network.members.every((m) => m.online && m.blocks.length > 0),
          600_000,
          'every device holding blocks again',
        );
      }
    }

    // Decode, with each device's CPU time around it.
    const cpuBefore = lab.machines.map((m) => cpuSeconds(lab, m.name));
    const measured: { perSecond: number; tokens: number }[] = [];
    for (let run = 0; run < runs; run++) measured.push(await complete(office, key, uploaded.name, decodeTokens));
    const cpuPerToken = lab.machines.map(
      (m, i) => (cpuSeconds(lab, m.name) - cpuBefore[i]!) / measured.reduce((sum, r) => sum + r.tokens, 0),
    );
    const three = median(measured.map((r) => r.perSecond));
    const separate = 1 / cpuPerToken.reduce((a, b) => a + b, 0);

    const state = await office.state();
    const memberRows = state.network!.members;
    const history = (await customer.get('/downloads/history/').expect(200)).body as {
      downloads: { kind: string; version: string; fileSize: number }[];
    };
    const platformLinks = history.downloads.filter((d) => d.kind === 'model' && d.version.startsWith(`${uploaded.name}@`));
    const platformBytes = platformLinks.reduce((sum, d) => sum + d.fileSize, 0);
    const perDevice = await Promise.all(
      devices.map(async ({ host, group, pid }, i) => ({
        host,
        member: memberRows.find((m) => m.name === host.name),
        peakRss: peakRssOf(pid),
        groupPeak: await group.peakBytes(),
        groupLimit: group.limitBytes,
        limit: await limitEvents(group),
        cpu: cpuPerToken[i]!,
      })),
    );
    for (const { host } of devices.splice(0)) await host.close();

    // llama.cpp: one device uncapped, then one capped the same way, from a dropped page cache.
    const promptFile = join(await mkdtemp(join(tmpdir(), 'bench-network-prompt-')), 'prompt.json');
    cleanup.push(() => rm(resolve(promptFile, '..'), { recursive: true, force: true }));
    await writeFile(promptFile, JSON.stringify(promptIds));
    const llamaArgs = [
      join(root, 'infra/bench/inference/llama-cpp-run.mjs'),
      settings.llamaCpp,
      model.gguf,
      promptFile,
      String(decodeTokens),
      '1',
      'cold',
    ];
    console.log('capped: llama.cpp on one uncapped device…');
    const uncapped = await jsonChild(process.execPath, llamaArgs);
    console.log('capped: llama.cpp on one capped device (pages from disk)…');
    const group = await createMemoryCgroup(cap, 'mwbench');
    cleanup.push(() => group.close());
    dropPageCache();
    let capped: Record<string, number> | null = null;
    try {
      capped = await jsonChild('sh', ['-c', `${group.joinScript()}exec "$0" "$@"`, process.execPath, ...llamaArgs]);
    } catch (error) {
      // Killed at the cap: llama.cpp's CPU repack copies some types (Q4_0) into anonymous memory, which no cap without swap pages.
      if (!(await oomKilled(group))) throw error;
    }
    const cappedGroupPeak = await group.peakBytes();
    const cappedRate = capped?.decodeTokensPerSecond ?? NaN;

    // The table.
    const title = `${model.label}: ${manifest.blocks.length} blocks, ${manifest.activations} activations, ${gb(packageBytes)} package, GGUF ${gb(ggufBytes)}`;
    rows.push([`— capped stage: ${title}`, '', '', '']);
    rows.push([
      'memory cap per device (cgroup v1)',
      gb(cap),
      capHoldsModel ? 'NOT below the whole model: llama.cpp need not page' : `< whole model; a third ${gb(modelWeights / 3)}`,
      capHoldsModel ? 'MISS' : '',
    ]);
    rows.push([
      'upload to the platform / host download',
      `${(uploadMs / 1000).toFixed(0)} s / ${(hostDownloadMs / 1000).toFixed(0)} s`,
      '',
      '',
    ]);
    rows.push([
      'create network → first token',
      `${(first.firstTokenMs / 1000).toFixed(1)} s`,
      `blocks planned at ${(plannedMs / 1000).toFixed(1)} s; then members fetch their shares over the LAN and load${refused ? `; ${refused} answer(s) refused while members dropped and rejoined` : ''}`,
      '',
    ]);
    rows.push(['decode tokens/s, three capped devices', three.toFixed(2), `median of ${runs}, ${decodeTokens} tokens`, '']);
    rows.push([
      'decode tokens/s, llama.cpp one capped device',
      capped ? cappedRate.toFixed(2) : 'killed',
      capped
        ? `read ${gb(capped.diskReadBytes!)} from disk answering (first token ${(capped.firstTokenMs! / 1000).toFixed(1)} s), cgroup peak ${gb(cappedGroupPeak)}`
        : `out of memory at the cap (cgroup peak ${gb(cappedGroupPeak)}): its repacked weights cannot page`,
      '',
    ]);
    rows.push([
      'decode tokens/s, llama.cpp one uncapped device',
      uncapped.decodeTokensPerSecond!.toFixed(2),
      `peak RSS ${gb(uncapped.peakRssBytes!)}`,
      '',
    ]);
    const vsCapped = three / cappedRate;
    const vsUncapped = three / uncapped.decodeTokensPerSecond!;
    rows.push([
      'three capped / llama.cpp capped',
      capped ? `${vsCapped.toFixed(2)}×` : 'n/a',
      '≥ 3.00×',
      capped ? verdict(vsCapped >= 3) : '',
    ]);
    rows.push(['three capped / llama.cpp uncapped', `${vsUncapped.toFixed(2)}×`, '≥ 0.70×', verdict(vsUncapped >= 0.7)]);
    // One stream runs one device at a time: on machines of their own a token costs the devices' CPU
    // time in turn (each one thread), plus three LAN hops of a hidden state (16 KB for 4096 wide: well under a ms).
    rows.push([
      'separate machines (1 / Σ CPU s a token)',
      `${separate.toFixed(2)} tok/s`,
      `${capped ? `${(separate / cappedRate).toFixed(2)}×` : 'n/a'} llama.cpp capped, ${(separate / uncapped.decodeTokensPerSecond!).toFixed(2)}× uncapped; CPU s/token ${cpuPerToken.map((c) => c.toFixed(3)).join(' + ')}`,
      '',
    ]);
    // The host installed the whole package from the platform, though its share report lists only
    // its own blocks' files: its bytes are the download log's, less what members took from it.
    const membersFromPlatform = perDevice
      .filter((d) => d.host !== office)
      .reduce((sum, d) => sum + sourceBytes(d.member, 'platform', 'installed'), 0);
    for (const { host, member, peakRss, groupPeak, groupLimit, limit } of perDevice) {
      const share = member?.share ?? null;
      const weights = share?.memory.weights_bytes ?? (member?.blocks ?? []).reduce((sum, b) => sum + blockWeights[b]!, 0);
      const fixed = share?.memory.fixed_bytes ?? null;
      const bound = fixed === null ? null : 1.2 * weights + fixed;
      rows.push([
        `${host.name} (${member?.role ?? '?'}), blocks ${(member?.blocks ?? []).join(',')}: peak RSS`,
        gb(peakRss),
        `share ${gb(weights)}, fixed ${fixed === null ? 'not stated' : gb(fixed)}: ≤ ${bound === null ? '?' : gb(bound)}; cgroup peak ${gb(groupPeak)} of ${gb(groupLimit)}, ${limit.kills} killed`,
        verdict(bound !== null && peakRss <= bound),
      ]);
      const fromPlatform = host === office ? platformBytes - membersFromPlatform : sourceBytes(member, 'platform', 'installed');
      rows.push([`${host.name}: downloaded from platform / LAN host`, `${mb(fromPlatform)} / ${mb(sourceBytes(member, 'lan'))}`, '', '']);
    }
    rows.push([
      'platform download log: bytes linked for this model',
      `${mb(platformBytes)} (${platformLinks.length} files)`,
      `= one copy, ${mb(packageBytes)}`,
      verdict(platformBytes === packageBytes),
    ]);
  } catch (error) {
    // What each device went through, for a run that broke (an 8B run is not repeated lightly).
    for (const { host, group } of devices)
      console.error(
        `${host.name}: killed at its cap ${await oomKilled(group).catch(() => '?')}; last log lines: ${host.logs.slice(-8).join(' | ')}`,
      );
    throw error;
  } finally {
    await cleanAll();
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
  }
  return rows;
}

/** Removes a model's objects from the store, and checks none is left. */
export async function removeModelObjects(storage: ReturnType<typeof minioClient>, bucket: string, modelId: string): Promise<void> {
  const prefix = `models/${modelId}/`;
  await storage.removeObjects(
    bucket,
    (await leftUnder(storage, bucket, prefix)).filter((n) => !n.startsWith('(')),
  );
  const left = await leftUnder(storage, bucket, prefix);
  if (left.length > 0) throw new Error(`left in the object store: ${left.join(', ')}`);
}

/** Times the group reached its limit (memory or memory+swap, which counts apart) and processes the kernel killed there. */
async function limitEvents(group: MemoryCgroup): Promise<{ hits: number; kills: number }> {
  const read = (file: string) => readFile(join(group.path, file), 'utf8').catch(() => '0');
  const control = await read('memory.oom_control');
  return {
    hits: Math.max(await group.failures(), Number((await read('memory.memsw.failcnt')).trim())),
    kills: Number(/^oom_kill (\d+)/m.exec(control)?.[1] ?? 0),
  };
}

/** Whether the kernel killed a process of the group at its limit. */
async function oomKilled(group: MemoryCgroup): Promise<boolean> {
  const { hits, kills } = await limitEvents(group);
  return kills > 0 || hits > 0;
}

function sourceBytes(member: HostNetworkMember | undefined, ...sources: string[]): number {
  return (member?.share?.files ?? []).filter((f) => sources.includes(f.source)).reduce((sum, f) => sum + f.bytes, 0);
}

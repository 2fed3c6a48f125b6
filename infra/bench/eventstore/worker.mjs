// One workload against one system, in a process of its own (forked by
// ../eventstore.bench.mjs, which creates and drops the database). Receives
// { system, workload, url, options } over IPC and answers { ok, result } or { ok: false, error }.
import { randomUUID } from 'node:crypto';
import { createSystem, rawUnparsedReader } from './systems.mjs';
import { cpuMicrosPerEvent, makeEvent, makeEvents, measureWindow, now, percentile, sleep } from './support.mjs';

const workloads = { append, fill, catchup, lag };

process.once('message', async (job) => {
  let system;
  try {
    const run = workloads[job.workload];
    if (!run) throw new Error(`unknown workload ${job.workload}`);
    if (job.system === 'limit-unparsed') {
      system = rawUnparsedReader(job.url, job.options.poolSize);
    } else {
      system = await createSystem(job.system, job.url, job.options);
      await system.setup();
    }
    const result = await run(system, job.options);
    await system.close();
    process.send({ ok: true, result }, () => process.exit(0));
  } catch (error) {
    await system?.close().catch(() => undefined);
    process.send({ ok: false, error: error?.stack ?? String(error) }, () => process.exit(1));
  }
});

/**
 * Appends for a fixed time: `writers` concurrent writers, each on its own stream, each
 * waiting for its append before the next (the expected version is checked every time),
 * `batch` events per append. Counts events whose append completed inside the window that
 * opens after a warm-up (connections opened, JIT warm).
 */
async function append(system, { writers, batch, seconds, warmupSeconds }) {
  const run = randomUUID().slice(0, 8);
  let stopping = false;
  let measuring = false;
  let events = 0;
  const latencies = [];
  const loops = Array.from({ length: writers }, async (_, w) => {
    const write = system.writer(`bench-${run}${w}`);
    let seq = w * 10_000_000;
    while (!stopping) {
      const batchEvents = makeEvents(batch, seq);
      seq += batch;
      const t0 = now();
      await write(batchEvents);
      if (measuring) {
        events += batch;
        latencies.push(now() - t0);
      }
    }
  });
  await sleep(warmupSeconds * 1000);
  const window = await measureWindow(system.pool);
  const t0 = now();
  measuring = true;
  await sleep(seconds * 1000);
  measuring = false;
  const elapsed = (now() - t0) / 1000;
  window.mark();
  stopping = true;
  await Promise.all(loops);
  const { cpu, db } = await window.close();
  const appends = latencies.length;
  return {
    eventsPerSecond: events / elapsed,
    cpuMicrosPerEvent: cpuMicrosPerEvent(cpu, events / elapsed),
    appendsPerSecond: appends / elapsed,
    appendP50: percentile(latencies, 50),
    appendP99: percentile(latencies, 99),
    cpu,
    commitsPerAppend: db.commits / appends,
    walBytesPerEvent: db.walBytes / events,
    walFsyncsPerSecond: db.walFsyncs / elapsed,
  };
}

/** Fills the log with `total` events, `batch` per append on fresh streams, `writers` at once. Not timed for the table. */
async function fill(system, { total, batch, writers }) {
  const t0 = now();
  let claimed = 0;
  let stream = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (claimed < total) {
        const n = Math.min(batch, total - claimed);
        claimed += n;
        const seq = claimed;
        await system.writer(`fill-${stream++}`)(makeEvents(n, seq));
      }
    }),
  );
  const fillSeconds = (now() - t0) / 1000;
  await system.afterFill();
  return { total, fillSeconds, eventsPerSecond: total / fillSeconds };
}

/**
 * One reader pages through the whole log from position 0, `page` events per call, as a
 * projection being rebuilt or a new subscriber does. Only the reading is timed.
 */
async function catchup(system, { total, page, maxSeconds }) {
  let after = 0;
  let read = 0;
  let pages = 0;
  let capped = false;
  const window = await measureWindow(system.pool);
  const t0 = now();
  while (read < total) {
    const { n, last } = await system.readPage(after, page);
    if (n === 0) break;
    read += n;
    pages += 1;
    after = last;
    if (now() - t0 > maxSeconds * 1000) {
      capped = true;
      break;
    }
  }
  const elapsed = (now() - t0) / 1000;
  window.mark();
  const { cpu } = await window.close();
  return {
    eventsPerSecond: read / elapsed,
    cpuMicrosPerEvent: cpuMicrosPerEvent(cpu, read / elapsed),
    read,
    pages,
    seconds: elapsed,
    capped,
    cpu,
  };
}

/**
 * Projection lag under a steady load: `writers` writers on their own streams append single
 * events on a fixed schedule adding up to `rate` events/s for `seconds`, while the system's
 * projection mechanism applies them (one upsert per event). Lag of an event = the moment
 * its projection batch committed minus the moment its append returned to the writer, both
 * clocks in this process. Events scheduled in the first `warmupSeconds` are not counted.
 */
async function lag(system, { rate, seconds, writers, warmupSeconds }) {
  const appendedAt = new Map(); // position -> { t, counted }
  const committedEarly = new Map(); // position -> commit time seen before the writer's callback ran
  const lags = [];
  const appendLatencies = [];
  const record = (position, appended, committed) => {
    if (appended.counted) lags.push(Math.max(0, committed - appended.t));
  };
  const projection = await system.startProjection((positions) => {
    const t = now();
    for (const p of positions) {
      const a = appendedAt.get(p);
      if (a) {
        appendedAt.delete(p);
        record(p, a, t);
      } else committedEarly.set(p, t);
    }
  });
  await sleep(500); // let the projection take its lock and reach the (empty) head

  const window = await measureWindow(system.pool);
  const t0 = now();
  const interval = 1000 / rate;
  const end = t0 + seconds * 1000;
  let appended = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const write = system.writer(`lag-${w}`);
      for (let k = 0; ; k++) {
        const due = t0 + (k * writers + w) * interval;
        if (due >= end) break;
        const wait = due - now();
        if (wait > 0) await sleep(wait);
        const issued = now();
        const positions = await write([makeEvent(k * writers + w)]);
        const done = now();
        appended += positions.length;
        const counted = due - t0 >= warmupSeconds * 1000; // by schedule, so a slow start counts the same events
        if (counted) appendLatencies.push(done - issued);
        for (const p of positions) {
          const early = committedEarly.get(p);
          if (early !== undefined) {
            committedEarly.delete(p);
            record(p, { t: done, counted }, early);
          } else appendedAt.set(p, { t: done, counted });
        }
      }
    }),
  );
  const writeSeconds = (now() - t0) / 1000;
  const drainDeadline = now() + 15_000;
  while (appendedAt.size > 0 && now() < drainDeadline) await sleep(10);
  window.mark();
  const windowSeconds = (now() - t0) / 1000; // writing + draining: all the projection's work
  const notApplied = appendedAt.size;
  await projection.stop();
  const { cpu } = await window.close();
  return {
    p50: percentile(lags, 50),
    p99: percentile(lags, 99),
    max: Math.max(...lags),
    counted: lags.length,
    notApplied,
    achievedRate: appended / writeSeconds,
    cpuMicrosPerEvent: cpuMicrosPerEvent(cpu, appended / windowSeconds),
    appendP50: percentile(appendLatencies, 50),
    appendP99: percentile(appendLatencies, 99),
    cpu,
  };
}

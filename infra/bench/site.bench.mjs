#!/usr/bin/env node
// Site benchmark: `npm run bench:site` (builds the server, the site and the console first). Issue 16.
//
// The built api runs as its own process on a database of its own on infra's PostgreSQL
// (empty: migrations and the seeded Free/Pro/Enterprise plans) and serves web/dist at / and
// admin/dist at /admin/ from one origin, as production does: Content-Security-Policy,
// brotli-precompressed assets, cache headers. As `npm start` does, the public pages are
// prerendered again with that api's plans before anything is measured.
//   0. The floor: a page of one heading served by this process, measured the same way; each
//      page's LCP is printed as a ratio to it (1.00: as soon as anything can paint).
//   1. Lighthouse (the `lighthouse` package, its default config: mobile, simulated slow 4G,
//      4x CPU slowdown; categories performance, accessibility, best-practices, SEO) runs
//      BENCH_RUNS (3) times on each of /, /features, /pricing, /documentation and /login,
//      every run in a fresh headless Chromium (CHROME_PATH, default /usr/bin/chromium) with
//      an empty profile: a cold cache each time. Printed per page: the MEDIAN of each figure
//      over the runs, taken separately (scores, FCP, LCP, TBT, CLS), and the bytes of script
//      and of CSS the page transferred (network-requests, resource types Script and
//      Stylesheet; median too). The failing accessibility audits and the top performance
//      insights are those of the run whose performance score is the median.
//   2. The console's first-load script: the entry script of admin/dist/index.html and the
//      chunks it modulepreloads, gzipped (admin/scripts/first-load.mjs when present).
// Targets beside the figures: performance >= 95 and accessibility 100 on every page, LCP
// < 2.0 s, TBT < 100 ms, CLS < 0.05, console first-load <= 300 KB gzipped.
// Every run's full Lighthouse result (JSON) and a summary.json go to a folder under the
// system temp dir, printed at the end. BENCH_RUN_TIMEOUT_SECONDS (120) bounds each run.
// DATABASE_URL: use that PostgreSQL server instead of infra's.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { firstLoad } from '../../admin/scripts/first-load.mjs';
import apiProcess from '@meshwork/testkit/api/api-process.cjs';
import { down, env, up } from '../lib/index.mjs';
import { runBenchmark } from './run-benchmark.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_SECONDS ?? 120) * 1000;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGES = ['/', '/features', '/pricing', '/documentation', '/login'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const TARGETS = { performance: 95, accessibility: 100, lcpMs: 2000, tbtMs: 100, cls: 0.05, consoleKB: 300 };

const log = (s = '') => process.stdout.write(`${s}\n`);
const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
// Decimal kilobytes, as admin/scripts/first-load.mjs and the issue's budget count them.
const kb = (bytes) => (bytes / 1000).toFixed(1);
const mark = (ok) => (ok ? 'met' : 'MISSED');

/** One Lighthouse run in a Chromium of its own; resolves with the result (lhr). */
async function lighthouseRun(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'],
    logLevel: 'silent',
    handleSIGINT: false, // ours stops the api too
  });
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse run on ${url} took over ${RUN_TIMEOUT_MS / 1000} s`)), RUN_TIMEOUT_MS);
    });
    const result = await Promise.race([
      lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES }),
      timeout,
    ]);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    clearTimeout(timer);
    chrome.kill();
  }
}

/** The figures of one run. */
function figures(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? NaN) * 100);
  const value = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const bytes = (type) => requests.filter((r) => r.resourceType === type).reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    scriptBytes: bytes('Script'),
    cssBytes: bytes('Stylesheet'),
  };
}

/** What to fix: the audits of a category scoring below `below`, as { id, title, group, displayValue, savings }. */
function failing(lhr, category, below = 1) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.group !== 'metrics')
    .map((ref) => ({ ...lhr.audits[ref.id], group: ref.group }))
    .filter((a) => a.score !== null && a.score < below && a.scoreDisplayMode !== 'informative')
    .map((a) => ({
      id: a.id,
      title: a.title,
      group: a.group,
      displayValue: a.displayValue,
      savings: a.metricSavings,
      nodes: (a.details?.items ?? []).map((item) => item.node?.selector).filter(Boolean),
    }));
}

/**
 * The performance audits below 0.9 that Lighthouse estimates savings for (LCP + FCP + TBT ms,
 * CLS x 1000), largest first, then the failed insights without an estimate; at most six.
 */
function opportunities(lhr) {
  const weight = (s = {}) => (s.LCP ?? 0) + (s.FCP ?? 0) + (s.TBT ?? 0) + (s.CLS ?? 0) * 1000;
  return failing(lhr, 'performance', 0.9)
    .map((a) => ({ ...a, weight: weight(a.savings) }))
    .filter((a) => a.weight > 0 || a.group === 'insights')
    .sort((a, b) => b.weight - a.weight)
    .slice(0, 6);
}

/** The console's first-load script: its entry and everything that entry imports statically, gzipped. */
function consoleFirstLoad() {
  const { gzipBytes, scripts } = firstLoad(path.join(root, 'admin/dist'));
  return { bytes: gzipBytes, files: scripts.map((script) => script.file), source: 'admin/scripts/first-load.mjs' };
}

/**
 * The floor: a page of one heading and nothing else, served from this process. Under the same
 * simulated network and CPU no page can paint sooner, so each page's FCP and LCP are printed
 * as a ratio to it.
 */
async function startFloorPage() {
  const server = http.createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    response.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        '<title>Floor</title><meta name="description" content="The fastest page there can be."></head><body><h1>Floor</h1></body></html>',
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

let api;
let startedPostgres = false;
let finishing = false;
async function cleanup() {
  if (finishing) return;
  finishing = true;
  await api?.stop().catch(() => undefined);
  // Chromium instances launched and not yet killed (an interrupted run).
  chromeLauncher.killAll();
  // A PostgreSQL server this run started is stopped again; one that was running stays.
  if (startedPostgres) await down(['postgres']).catch(() => undefined);
}

async function main() {
  const t0 = performance.now();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-bench-site-'));
  const chromeVersion = execFileSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).trim();
  const lhVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')).version;
  log(
    `Site benchmark — Lighthouse ${lhVersion} (default mobile config: simulated slow 4G, 4x CPU slowdown), ${chromeVersion}; ` +
      `Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}; ${RUNS} runs per page`,
  );
  if (!process.env.DATABASE_URL) startedPostgres = (await up(['postgres'])).some((server) => server.started);
  api = await apiProcess.startApiProcess('bench_site', process.env.DATABASE_URL ?? env().DATABASE_URL);
  const origin = new URL(api.base).origin;
  log(`api ${origin} (web/dist built ${fs.statSync(path.join(root, 'web/dist/index.html')).mtime.toISOString()})`);

  // As `npm start` does: the public pages rendered again with this api's plans.
  execFileSync(process.execPath, [path.join(root, 'web/scripts/prerender.mjs'), '--api', origin], { stdio: 'inherit' });

  /** The medians of RUNS Lighthouse runs on one address, with what failed in the median run. */
  async function measure(label, url) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const lhr = await lighthouseRun(url).catch(async (error) => {
        // Once more after a pause: a 500 while web/dist is being rebuilt, a slow start under load.
        log(`  ${label} run ${i + 1} failed, retrying in 10 s: ${error.message}`);
        await new Promise((r) => setTimeout(r, 10_000));
        return lighthouseRun(url);
      });
      fs.writeFileSync(path.join(out, `${label.slice(1).replaceAll('/', '-') || 'home'}-${i + 1}.json`), JSON.stringify(lhr));
      runs.push({ lhr, figures: figures(lhr) });
      log(`  ${label} run ${i + 1}: performance ${runs.at(-1).figures.performance}, LCP ${Math.round(runs.at(-1).figures.lcpMs)} ms`);
    }
    const med = Object.fromEntries(Object.keys(runs[0].figures).map((k) => [k, median(runs.map((r) => r.figures[k]))]));
    const byScore = runs.slice().sort((a, b) => a.figures.performance - b.figures.performance);
    const mid = byScore[(byScore.length - 1) >> 1].lhr;
    return {
      page: label,
      median: med,
      runs: runs.map((r) => r.figures),
      accessibilityFailures: failing(mid, 'accessibility'),
      otherFailures: [...failing(mid, 'best-practices'), ...failing(mid, 'seo')],
      opportunities: opportunities(mid),
      warnings: mid.runWarnings,
    };
  }

  const floorPage = await startFloorPage();
  const floor = await measure('/floor', floorPage.url);
  await floorPage.close();
  const pages = [];
  for (const page of PAGES) pages.push(await measure(page, origin + page));
  const consoleLoad = consoleFirstLoad();
  await cleanup();

  printTable(pages, consoleLoad, floor);
  for (const p of pages) {
    log(`\n${p.page}:`);
    for (const w of p.warnings ?? []) log(`  Lighthouse warning: ${w}`);
    if (p.accessibilityFailures.length === 0) log('  accessibility: no failing audits');
    for (const a of p.accessibilityFailures)
      log(
        `  accessibility FAIL ${a.id}: ${a.title}${a.nodes.length ? ` (${a.nodes.slice(0, 3).join(', ')}${a.nodes.length > 3 ? ', …' : ''})` : ''}`,
      );
    for (const a of p.otherFailures) log(`  best-practices/SEO FAIL ${a.id}: ${a.title}`);
    if (p.opportunities.length === 0) log('  performance: nothing left to gain');
    for (const a of p.opportunities) {
      const savings = Object.entries(a.savings ?? {})
        .filter(([, v]) => v > 0)
        .map(([k, v]) => (k === 'CLS' ? `${k} ${v.toFixed(3)}` : `${k} ${Math.round(v)} ms`))
        .join(', ');
      log(`  performance ${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}${savings ? ` [saves ${savings}]` : ''}`);
    }
  }
  fs.writeFileSync(
    path.join(out, 'summary.json'),
    JSON.stringify({ lighthouse: lhVersion, chrome: chromeVersion, runs: RUNS, floor, pages, console: consoleLoad }, null, 2),
  );
  log(`\nfull Lighthouse results (one JSON per run) and summary.json: ${out}`);
  log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s; load at the end ${os.loadavg()[0].toFixed(2)}`);
}

function printTable(pages, consoleLoad, floor) {
  const head = ['page', 'perf', 'a11y', 'best-pr', 'SEO', 'FCP s', 'LCP s', 'LCP/floor', 'TBT ms', 'CLS', 'script KB', 'CSS KB'];
  const rows = [floor, ...pages].map(({ page, median: m }) => [
    page,
    String(m.performance),
    String(m.accessibility),
    String(m.bestPractices),
    String(m.seo),
    (m.fcpMs / 1000).toFixed(2),
    (m.lcpMs / 1000).toFixed(2),
    (m.lcpMs / floor.median.lcpMs).toFixed(2),
    String(Math.round(m.tbtMs)),
    m.cls.toFixed(3),
    kb(m.scriptBytes),
    kb(m.cssBytes),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
  log(`\nmedians of ${RUNS} runs per page (each figure separately); script and CSS: bytes transferred (compressed)`);
  log('floor: one heading and nothing else, the soonest any page can paint under the same throttling');
  log(line(head));
  log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) log(line(r));
  log(`console first-load script: ${kb(consoleLoad.bytes)} KB gzipped (${consoleLoad.files?.length ?? '?'} files; ${consoleLoad.source})`);

  const worst = (key, worse) => pages.reduce((w, p) => (w && !worse(p.median[key], w.median[key]) ? w : p), null);
  const target = (label, key, ok, fmt, worse) => {
    const w = worst(key, worse);
    const all = pages.every((p) => ok(p.median[key]));
    log(`  ${label.padEnd(32)} ${mark(all).padEnd(6)} worst ${fmt(w.median[key])} (${w.page})`);
  };
  const lower = (a, b) => a < b;
  const higher = (a, b) => a > b;
  log('\ntargets (medians, every page):');
  target(`performance >= ${TARGETS.performance}`, 'performance', (v) => v >= TARGETS.performance, String, lower);
  target(`accessibility = ${TARGETS.accessibility}`, 'accessibility', (v) => v >= TARGETS.accessibility, String, lower);
  target(
    `LCP < ${TARGETS.lcpMs / 1000} s`,
    'lcpMs',
    (v) => v < TARGETS.lcpMs,
    (v) => `${(v / 1000).toFixed(2)} s`,
    higher,
  );
  target(
    `TBT < ${TARGETS.tbtMs} ms`,
    'tbtMs',
    (v) => v < TARGETS.tbtMs,
    (v) => `${Math.round(v)} ms`,
    higher,
  );
  target(
    `CLS < ${TARGETS.cls}`,
    'cls',
    (v) => v < TARGETS.cls,
    (v) => v.toFixed(3),
    higher,
  );
  log(
    `  ${`console first-load <= ${TARGETS.consoleKB} KB`.padEnd(32)} ${mark(consoleLoad.bytes / 1000 <= TARGETS.consoleKB).padEnd(6)} ${kb(consoleLoad.bytes)} KB`,
  );
}

await runBenchmark(main, cleanup, 'stopping the api and Chromium');

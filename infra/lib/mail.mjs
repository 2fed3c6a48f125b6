// The mail catcher (infra/servers/mail-catcher.mjs) as a managed component.
// Nothing to install: it is plain Node on the repo's own node_modules.
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { host, ports } from './config.mjs';
import { spawnDetached } from './proc.mjs';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'servers', 'mail-catcher.mjs');

/** Resolves true when the SMTP port greets with 220. */
function smtpGreets() {
  return new Promise((resolve) => {
    const s = net.connect({ host, port: ports.smtp });
    const done = (v) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(2000, () => done(false));
    s.once('data', (d) => done(d.toString().startsWith('220')));
    s.once('error', () => done(false));
  });
}

export default {
  name: 'mail',
  marker: 'mail-catcher.mjs',
  stopSignal: 'SIGTERM',
  stopTimeoutMs: 5000,
  startTimeoutMs: 15000,
  ports: () => [ports.smtp, ports.mailHttp],
  url: () => `smtp://${host}:${ports.smtp} + http://${host}:${ports.mailHttp}`,
  external: () => null,

  async install() {},

  launch() {
    // process.execPath: the same Node that runs infra (Node 24 via npm scripts).
    return spawnDetached('mail', process.execPath, [script], {
      marker: 'mail-catcher.mjs',
      env: { MAIL_HOST: host, MAIL_SMTP_PORT: String(ports.smtp), MAIL_HTTP_PORT: String(ports.mailHttp) },
    });
  },

  async probe() {
    const res = await fetch(`http://${host}:${ports.mailHttp}/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok && (await smtpGreets());
  },
};

// A byte pipe between two sockets, for tests: the LAN lab's ways into and out of its machines,
// the api and object store as hosts in a lab reach them, storage that a test takes away. In
// this process (`startRelay`) or as a script in another network namespace (see the end).
const net = require('node:net');

/** `/path` is a Unix socket (it crosses network namespaces); `host:port` a TCP address, port 0 any free one. */
function endpoint(text) {
  if (text.startsWith('/')) return { path: text };
  const colon = text.lastIndexOf(':');
  return { host: text.slice(0, colon), port: Number(text.slice(colon + 1)) };
}

/**
 * Listens on `from` and joins each connection to a new one to `to`; an error on either end
 * closes both. `cut()` closes every connection and refuses new ones until `restore()`.
 * Resolves once it listens.
 */
async function startRelay(from, to) {
  const sockets = new Set();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(endpoint(to));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint(from), resolve);
  });
  const address = server.address();
  const cut = () => {
    open = false;
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: typeof address === 'string' ? null : address.port,
    cut,
    restore() {
      open = true;
    },
    close() {
      cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

module.exports = { startRelay, RELAY_SCRIPT: __filename };

// As a script: `node socket-relay.cjs <from> <to>` prints its port (or `listening` on a Unix
// socket) once it listens, and runs until killed.
if (require.main === module) {
  const [from, to] = process.argv.slice(2);
  startRelay(from, to).then(
    (relay) => console.log(relay.port ?? 'listening'),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}

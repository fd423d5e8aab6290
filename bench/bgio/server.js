'use strict';
/**
 * A boardgame.io server for the element-draft fixture, on 127.0.0.1 only.
 *
 *   node server.js --port 8123 [--storage memory|flatfile] [--dir /tmp/x]
 *
 * memory: boardgame.io's default InMemory storage (the matches live in this process).
 * flatfile: its FlatFile storage (node-persist: every state, log and metadata write is
 * a JSON file under --dir), the persistent adapter that ships with boardgame.io.
 * Prints "ready <port>" once it listens; stops on SIGTERM.
 */
const { Server, FlatFile, Origins } = require('boardgame.io/server');
const { ElementDraft } = require('./game');

function arg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function main() {
  const port = Number(arg('port', '0'));
  const storage = arg('storage', 'memory');
  let db;
  if (storage === 'flatfile') {
    db = new FlatFile({ dir: arg('dir'), logging: false });
  } else if (storage !== 'memory') {
    throw new Error(`unknown storage ${storage}`);
  }
  const server = Server({ games: [ElementDraft], db, origins: [Origins.LOCALHOST] });
  // socket.io's listen(port, callback) would bind every interface
  const listen = server.app.listen.bind(server.app);
  server.app.listen = (p, callback) => listen(p, '127.0.0.1', callback);
  const { appServer } = await server.run({ port });
  process.stdout.write(`ready ${appServer.address().port}\n`);
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});

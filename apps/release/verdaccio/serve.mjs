// Starts Verdaccio (installed beside this file from its lockfile) with the
// config file named by argv[2], on 127.0.0.1 and a port the OS picks, and
// prints one line `{"url": "http://127.0.0.1:<port>/"}` on stdout once it
// listens. A child process of its own, so a test or `pnpm release:local`
// can stop it with a signal and nothing of Verdaccio lives in their process.
import { runServer } from 'verdaccio';

const configPath = process.argv[2];
if (!configPath) {
  process.stderr.write('usage: node serve.mjs <config.yaml>\n');
  process.exit(2);
}
const server = await runServer(configPath);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/` })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));

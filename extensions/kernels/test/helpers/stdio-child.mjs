// The child process of the stdio test: spaces and kernels (REACTOR_JUPYTER=auto on the
// folder of spaces given as argv[2]) served over stdio on ?kernels, logging at debug to
// stderr. Runs the built packages (dist), as an installed server would.
import { buildHost, createStderrLogger, serveStdio } from '@reactor/host';
import { createSpacesExtension } from '@reactor/ext-spaces';
import { createKernelsExtension } from '../../dist/index.js';

const root = process.argv[2];
const logger = createStderrLogger('debug');
const host = await buildHost(
  [createSpacesExtension({ roots: [root] }), createKernelsExtension({ jupyter: 'auto', spaces: { roots: [root] }, logger: logger.child({ extension: 'kernels' }) })],
  { logger },
);
const serving = await serveStdio(host, { selection: 'kernels' });
await serving.closed;
await host.stop();

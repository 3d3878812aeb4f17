/**
 * The child process of the stdio test: the fixture host served over stdio on
 * the selection given as argv[2], logging at info (to stderr, never stdout).
 */
import { createStderrLogger, serveStdio } from '../../src/index.js';
import { fixtureHost } from './fixtures.js';

const host = await fixtureHost({ logger: createStderrLogger('info'), toolsetsTool: true, instructions: 'Served over stdio.' });
const serving = await serveStdio(host, { selection: process.argv[2] ?? '' });
await serving.closed;
await host.stop();

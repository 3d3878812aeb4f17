/**
 * Server process: the ceiling — bare node:http replaying Reactor's captured
 * answers (`--tools N`), captured from a running server with `--from <origin>`.
 */
import { createServer } from 'node:http';
import { ceilingHandler } from '../frameworks/ceiling.js';
import { announce, argNumber, argString } from './child.js';

await announce(createServer(await ceilingHandler(argNumber('tools', 100), process.argv.includes('--from') ? argString('from') : undefined)));

/** Server process: the ceiling — bare node:http replaying Reactor's captured answers (`--tools N`). */
import { createServer } from 'node:http';
import { ceilingHandler } from '../frameworks/ceiling.js';
import { announce, argNumber } from './child.js';

await announce(createServer(await ceilingHandler(argNumber('tools', 100))));

/** Server process: the floor — bare node:http validating and answering tools/call itself (`--tools N`). */
import { createServer } from 'node:http';
import { floorHandler } from '../frameworks/floor.js';
import { announce, argNumber } from './child.js';

await announce(createServer(await floorHandler(argNumber('tools', 100))));

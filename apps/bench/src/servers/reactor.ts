/** Server process: Reactor (`--tools N`, `--sessions` for the memory rows, `--middleware` for one no-op middleware). */
import { createServer } from 'node:http';
import { reactorApp } from '../frameworks/reactor.js';
import { announce, argFlag, argNumber } from './child.js';

await announce(createServer(await reactorApp(argNumber('tools', 100), { sessions: argFlag('sessions'), middleware: argFlag('middleware') })));

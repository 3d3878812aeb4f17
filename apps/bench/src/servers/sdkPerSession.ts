/** Server process: the SDK, a fresh server registering every tool per session (`--tools N`). */
import { createServer } from 'node:http';
import { sdkPerSession } from '../frameworks/sdk.js';
import { announce, argNumber } from './child.js';

await announce(createServer(sdkPerSession(argNumber('tools', 100))));

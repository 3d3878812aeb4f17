/** Server process: the SDK, a fresh server registering every tool per request (`--tools N`). */
import { createServer } from 'node:http';
import { sdkPerRequest } from '../frameworks/sdk.js';
import { announce, argNumber } from './child.js';

await announce(createServer(sdkPerRequest(argNumber('tools', 100))));

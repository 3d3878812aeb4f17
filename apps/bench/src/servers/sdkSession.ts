/** Server process: the SDK, one long-lived session (`--tools N`). */
import { createServer } from 'node:http';
import { sdkSession } from '../frameworks/sdk.js';
import { announce, argNumber } from './child.js';

await announce(createServer(await sdkSession(argNumber('tools', 100))));

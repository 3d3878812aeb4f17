/** Server process: fastmcp, stateless (`--tools N`). */
import { startFastmcp } from '../frameworks/fastmcp.js';
import { announce, argNumber } from './child.js';

await announce((await startFastmcp(argNumber('tools', 100))).server);

import { createRequire } from 'node:module';

// Read from package.json (two levels above both src/kernel/ and dist/kernel/), so a changesets
// release bumps the version the host checks ranges against without a code edit.
const require = createRequire(import.meta.url);

/** The version of this copy of `@reactor/host`. */
export const HOST_VERSION: string = (require('../../package.json') as { version: string }).version;

/**
 * The flags of `pnpm bench` (`main.ts`). A leading `--` is dropped: `pnpm bench -- --only command`
 * reaches the script as `-- --only command` (pnpm passes the `--` through), as scripts/soak.mjs takes it.
 */
import { parseArgs } from 'node:util';

/** The bench's flags, parsed from `argv` (the arguments after the script). */
export function benchArgs(argv: readonly string[]) {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  return parseArgs({
    args,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      rounds: { type: 'string' },
      'slice-ms': { type: 'string' },
      concurrency: { type: 'string' },
      'command-rounds': { type: 'string' },
    },
  }).values;
}

// The arguments a root script was given. `pnpm <script> -- --flag` (pnpm 12)
// passes the `--` through to the script, and node:util's parseArgs would take
// it as the end of options and refuse every flag after it as a positional:
// drop one leading `--`, so both `pnpm soak --seconds 30` and
// `pnpm soak -- --seconds 30` work.
import process from 'node:process';

export function scriptArgs(argv = process.argv.slice(2)) {
  return argv[0] === '--' ? argv.slice(1) : argv;
}

#!/usr/bin/env node
/**
 * The `reactor-mcp-server` bin. Exit codes: 0 after a clean shutdown, 2 for an
 * invalid flag or environment variable, 1 for any other failure to start
 * (`cluster`: 1 when Redis cannot be reached).
 */
import { runHashToken } from './command/auth/hashToken.js';
import { runCommand } from './command/command.js';
import { runClusterCommand } from './command/commandCluster.js';
import { ErrorCodes, errorMessage, isReactorError } from './kernel/errors.js';

try {
  const [first, ...rest] = process.argv.slice(2);
  if (first === 'hash-token') await runHashToken(rest, { stdin: process.stdin, stdout: (text) => process.stdout.write(text) });
  // `cluster status|enable|disable`: 0 done, 1 Redis unreachable, 2 (thrown, below) a bad command line.
  else if (first === 'cluster') process.exitCode = await runClusterCommand(rest, { env: process.env, stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
  // `reactor-mcp-server check [dir]` runs through runCommand too, and exits 1 when the package fails.
  else await runCommand(process.argv.slice(2), process.env);
} catch (error) {
  const code = isReactorError(error) ? ` (${error.code})` : '';
  process.stderr.write(`reactor-mcp-server: ${errorMessage(error)}${code}\n`);
  process.exit(isReactorError(error) && error.code === ErrorCodes.OPTION_INVALID ? 2 : 1);
}

#!/usr/bin/env node
/**
 * The `reactor-mcp-server` bin. Exit codes: 0 after a clean shutdown, 2 for an
 * invalid flag or environment variable, 1 for any other failure to start.
 */
import { runCommand } from './command.js';
import { ErrorCodes, errorMessage, isReactorError } from './errors.js';

const argv = process.argv.slice(2);
try {
  if (argv[0] === 'check') {
    // The checker (and its tokenizer) loads only for this subcommand, never when serving.
    const { runCheckCommand } = await import('./check/command.js');
    process.exitCode = await runCheckCommand(argv.slice(1), { stdout: (text) => process.stdout.write(text), cwd: process.cwd() });
  } else {
    await runCommand(argv, process.env);
  }
} catch (error) {
  const code = isReactorError(error) ? ` (${error.code})` : '';
  process.stderr.write(`reactor-mcp-server: ${errorMessage(error)}${code}\n`);
  process.exit(isReactorError(error) && error.code === ErrorCodes.OPTION_INVALID ? 2 : 1);
}

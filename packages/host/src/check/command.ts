/**
 * `reactor-mcp-server check [dir]`: lints the extension package in `dir`
 * (default: the working directory). Human output by default, `--json` for
 * tools; exit 0 when it passes, 1 when it has errors (or warnings, with
 * `--strict`), 2 for an invalid flag.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ErrorCodes, errorMessage, ReactorError } from '../kernel/errors.js';
import { checkPackage } from './checkPackage.js';
import { failsCheck } from './findings.js';
import { formatPackageCheck } from './format.js';

/** The usage text `check --help` prints. */
export const CHECK_HELP = `Usage: reactor-mcp-server check [dir] [options]

Lints the extension package in dir (default: the working directory) before it
ships: its reactorMcp field against what it exports, tool names (SEP-986),
descriptions, titles, annotations, schemas (convertible and portable), the token
cost of each toolset and the @reactor/host peer range. Build the package first.

Options:
  --json               print the findings as JSON
  --strict             warnings fail the check too
  --token-budget N     warn when a toolset costs more than N tokens (default 10000)
  -h, --help           print this help

Exit codes: 0 passed, 1 failed, 2 invalid option.
`;

/** Runs the check subcommand; returns the exit code. `argv` excludes the word `check`. */
export async function runCheckCommand(argv: readonly string[], io: { stdout: (text: string) => void; cwd: string }): Promise<number> {
  let values: { json?: boolean; strict?: boolean; 'token-budget'?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { json: { type: 'boolean' }, strict: { type: 'boolean' }, 'token-budget': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: 'reactor-mcp-server check', problem: errorMessage(error), hint: 'run reactor-mcp-server check --help' });
  }
  if (values.help) {
    io.stdout(CHECK_HELP);
    return 0;
  }
  if (positionals.length > 1) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: 'reactor-mcp-server check', problem: 'takes one directory', received: `${positionals.length} arguments`, hint: 'run reactor-mcp-server check [dir]' });
  }
  const budget = values['token-budget'];
  if (budget !== undefined && !/^\d+$/.test(budget)) {
    throw new ReactorError(ErrorCodes.OPTION_INVALID, { subject: 'flag "--token-budget"', problem: 'is not a whole number', received: JSON.stringify(budget), hint: 'e.g. --token-budget 8000' });
  }
  const check = await checkPackage(path.resolve(io.cwd, positionals[0] ?? '.'), budget === undefined ? {} : { tokenBudget: Number(budget) });
  io.stdout(values.json ? `${JSON.stringify(check, null, 2)}\n` : formatPackageCheck(check, values.strict === true));
  return failsCheck(check.findings, values.strict === true) ? 1 : 0;
}

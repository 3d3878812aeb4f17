/**
 * `@reactor/host/command`: the `reactor-mcp-server` command as a function —
 * parse its options, run it with dependencies of your own. The same names are
 * exported by the package root.
 */
export { parseCommandOptions, runCommand, COMMAND_HELP } from './command.js';
export type { CommandOptions, CommandDependencies, RunningCommand } from './command.js';
export type { CommandAuthOptions } from './auth/options.js';
export type { AuthSummary } from './auth/summary.js';
export type { CommandRedis, CommandRedisOptions } from './commandRedis.js';

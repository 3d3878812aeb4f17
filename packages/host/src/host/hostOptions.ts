/**
 * The options of a host (`buildHost`, `new McpHost`) and of each build,
 * describe or read.
 */
import type { Logger } from '../kernel/logger.js';
import type { OptionKeys } from '../kernel/optionKeys.js';
import type { ServerFactory } from './mint/mint.js';
import type { TokenCounter } from './tokens.js';
import type { TelemetryOptions } from '../telemetry/requestTelemetry.js';

/** Options of {@link buildHost}. */
export interface HostOptions {
  /** Server name clients see. Default `reactor-mcp-server`. */
  readonly name?: string;
  /** Server version clients see. Default: this host's version. */
  readonly version?: string;
  /** The host's own instructions, before the active toolsets'. */
  readonly instructions?: string;
  /** Makes every SDK server the host serves (e.g. a subclass carrying auth). */
  readonly serverFactory?: ServerFactory;
  /** Serve `list_server_toolsets` on every server. Default `false` (the command turns it on). */
  readonly toolsetsTool?: boolean;
  /** A pino-compatible logger. Default: JSON lines to stderr at `warn`. */
  readonly logger?: Logger;
  /** Throw from `buildHost` when anything failed at start-up (for tests and CI). */
  readonly strict?: boolean;
  /** Default time limit of a tool call, ms. Default 120 000; 0 disables. */
  readonly toolTimeoutMs?: number;
  /**
   * OpenTelemetry spans for tools/call, prompts/get and resources/read, by the
   * MCP semantic conventions (docs/observability.md). Default: off, nothing wrapped.
   */
  readonly telemetry?: TelemetryOptions;
  /** Time limit of each `onServer` hook, ms. Default 5 000. */
  readonly onServerTimeoutMs?: number;
  /** Time limit of each `onStart` hook, ms. Default 30 000. */
  readonly onStartTimeoutMs?: number;
  /** Time limit of each `onStop` hook, ms. Default 10 000. */
  readonly onStopTimeoutMs?: number;
  /** How many blueprints (tenant × selection) are kept; least recently used go first. Default 64. */
  readonly maxCachedSelections?: number;
  /**
   * The key (at least 32 bytes) that signs the `requestState` of input-required
   * results, so a client cannot alter it between rounds. Every replica serving
   * one client needs the same key. Default: a random key per process (with a
   * warning the first time a state is signed).
   */
  readonly requestStateKey?: string | Uint8Array;
}

/**
 * Every key of {@link HostOptions}; `buildHost` refuses any other. Add a new
 * option here as well as to the interface (the compiler insists).
 */
export const HOST_OPTION_KEYS: OptionKeys<HostOptions> = {
  name: true,
  version: true,
  instructions: true,
  serverFactory: true,
  toolsetsTool: true,
  logger: true,
  strict: true,
  toolTimeoutMs: true,
  onServerTimeoutMs: true,
  onStartTimeoutMs: true,
  onStopTimeoutMs: true,
  maxCachedSelections: true,
  requestStateKey: true,
  telemetry: true,
};

/** Options of a build, describe or read. */
export interface BuildOptions {
  /** The tenant (from the HTTP app's `tenant(req)`): its own cache entries and extensions. */
  readonly tenant?: string | undefined;
  /**
   * Toolsets this caller may not have (a token lacking their `scopes`): never
   * active — always-on ones included — and listed under `denied` by `describe()`.
   */
  readonly denied?: Iterable<string> | undefined;
  /**
   * The operator's read-only bound: serve only tools whose final annotations say
   * `readOnlyHint: true`, whatever the selection says (`readonly=false` is
   * reported under `filter.ignored`, never obeyed).
   */
  readonly readOnly?: boolean | undefined;
}

/** Options of `describe()`: a build's, plus a tokenizer. */
export interface DescribeOptions extends BuildOptions {
  /** Counts what the selection's `tools/list` costs a model: adds `tokens` to the answer (counted once per blueprint). */
  readonly tokenCounter?: TokenCounter | undefined;
}

/** `denied` may be any iterable, a one-shot iterator included: read it once. */
export function readDeniedOnce(options: BuildOptions): BuildOptions {
  return options.denied === undefined || Array.isArray(options.denied) ? options : { ...options, denied: [...options.denied] };
}

/** The active set less what the caller is denied (scopes beat even always-on toolsets). */
export function withoutDenied(active: Set<string>, denied: Iterable<string> | undefined): Set<string> {
  if (denied === undefined) return active;
  for (const name of denied) active.delete(name);
  return active;
}

/**
 * Every error the host raises or reports is a {@link ReactorError} with a stable
 * code from this one file, so callers (and tests) match on `code`, never on prose.
 *
 * Message shape: *subject "name" (package@version)*: *what happened*; expected
 * *x*, received *y*; hint: *what to do*.
 */

/** The stable error codes. Adding one is an API change; renaming one is a breaking change. */
export const ErrorCodes = {
  /** A plugin manifest (name, version, host range, events…) is malformed. */
  MANIFEST_INVALID: 'REACTOR_MANIFEST_INVALID',
  /** An extension's `host` range does not include this host's version. */
  EXTENSION_INCOMPATIBLE: 'REACTOR_EXTENSION_INCOMPATIBLE',
  /** Two extensions registered under one name. */
  EXTENSION_DUPLICATE: 'REACTOR_EXTENSION_DUPLICATE',
  /** `enable`/`disable`/`names` named an extension that is not registered or installed. */
  EXTENSION_NOT_FOUND: 'REACTOR_EXTENSION_NOT_FOUND',
  /** A value passed as an extension is not one. */
  EXTENSION_INVALID: 'REACTOR_EXTENSION_INVALID',
  /** A dependency named in a manifest is not registered, failed, or is disabled. */
  DEPENDENCY_MISSING: 'REACTOR_DEPENDENCY_MISSING',
  /** Dependencies form a cycle. */
  DEPENDENCY_CYCLE: 'REACTOR_DEPENDENCY_CYCLE',
  /** A tool spec is invalid (name, description, handler, schema). */
  TOOL_INVALID: 'REACTOR_TOOL_INVALID',
  /** Two extensions offer a tool of one name in one build. */
  TOOL_CONFLICT: 'REACTOR_TOOL_CONFLICT',
  /** A tool extension threw, or its `wrap` returned a non-function: the tool is left out. */
  TOOL_EXTENSION_FAILED: 'REACTOR_TOOL_EXTENSION_FAILED',
  /** A tool call exceeded its time limit. */
  TOOL_TIMEOUT: 'REACTOR_TOOL_TIMEOUT',
  /** A tool handler threw. */
  TOOL_FAILED: 'REACTOR_TOOL_FAILED',
  /** A toolset declaration is invalid. */
  TOOLSET_INVALID: 'REACTOR_TOOLSET_INVALID',
  /** A resource spec is invalid or failed to register. */
  RESOURCE_INVALID: 'REACTOR_RESOURCE_INVALID',
  /** A prompt spec is invalid or failed to register. */
  PROMPT_INVALID: 'REACTOR_PROMPT_INVALID',
  /** A tool's view (MCP Apps) is invalid: not a `ui://` URI, no or too much HTML, a malformed `csp`. */
  VIEW_INVALID: 'REACTOR_VIEW_INVALID',
  /** `toolsets()`, `tools()`, `resources()`, `prompts()` or `toolExtensions()` threw. */
  CONTRIBUTION_FAILED: 'REACTOR_CONTRIBUTION_FAILED',
  /** `onStart` threw or timed out. */
  START_FAILED: 'REACTOR_START_FAILED',
  /** `onStop` threw or timed out. */
  STOP_FAILED: 'REACTOR_STOP_FAILED',
  /** `onServer` threw or timed out. */
  ON_SERVER_FAILED: 'REACTOR_ON_SERVER_FAILED',
  /** A held extension could not be imported or constructed when it woke. */
  LOAD_FAILED: 'REACTOR_LOAD_FAILED',
  /** An imported module's declarations differ from its package.json `reactorMcp` field. */
  DECLARATION_MISMATCH: 'REACTOR_DECLARATION_MISMATCH',
  /** A package's `reactorMcp` field or package.json is invalid or unreadable. */
  PACKAGE_INVALID: 'REACTOR_PACKAGE_INVALID',
  /** `strict: true` and something failed at start-up: lists every problem. */
  STARTUP_FAILED: 'REACTOR_STARTUP_FAILED',
  /** A middleware threw: the call it wrapped failed closed. */
  MIDDLEWARE_FAILED: 'REACTOR_MIDDLEWARE_FAILED',
  /** An option passed to the host, the app or the command is invalid. */
  OPTION_INVALID: 'REACTOR_OPTION_INVALID',
  /** A tool was passed a cursor it did not make (garbled, forged, or another call's): call again without it. */
  CURSOR_INVALID: 'REACTOR_CURSOR_INVALID',
} as const;

/** One of {@link ErrorCodes}' values. */
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** What a {@link ReactorError} is about, used to build its message. */
export interface ReactorErrorDetails {
  /** The subject with its kind, e.g. `extension "spaces"` or `tool "list_spaces" of extension "spaces"`. */
  subject: string;
  /** What happened. */
  problem: string;
  /** What was expected (described, never dumped). */
  expected?: string;
  /** What was received (described, never dumped). */
  received?: string;
  /** What to do about it. */
  hint?: string;
  /** The extension concerned, when there is one. */
  extension?: string;
  /** The underlying error. */
  cause?: unknown;
}

const BRAND = 'reactor.error';

/**
 * The host's one error class. Identity is checked with {@link isReactorError}
 * (a string brand), never `instanceof`, because two copies of the host may be
 * loaded in one process.
 */
export class ReactorError extends Error {
  /** Stable machine-readable code, e.g. `REACTOR_MANIFEST_INVALID`. */
  readonly code: ErrorCode;
  /** The subject of the error, e.g. `extension "spaces"`. */
  readonly subject: string;
  /** The extension concerned, if any. */
  readonly extension: string | undefined;
  /** What was expected, if said. */
  readonly expected: string | undefined;
  /** What was received, if said. */
  readonly received: string | undefined;
  /** What to do about it, if said. */
  readonly hint: string | undefined;
  /** @internal brand for cross-copy identity. */
  readonly brand = BRAND;

  constructor(code: ErrorCode, details: ReactorErrorDetails) {
    super(formatMessage(details), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ReactorError';
    this.code = code;
    this.subject = details.subject;
    this.extension = details.extension;
    this.expected = details.expected;
    this.received = details.received;
    this.hint = details.hint;
  }
}

function formatMessage(d: ReactorErrorDetails): string {
  let message = `${d.subject}: ${d.problem}`;
  if (d.expected !== undefined || d.received !== undefined) {
    const parts: string[] = [];
    if (d.expected !== undefined) parts.push(`expected ${d.expected}`);
    if (d.received !== undefined) parts.push(`received ${d.received}`);
    message += `; ${parts.join(', ')}`;
  }
  if (d.hint !== undefined) message += `; hint: ${d.hint}`;
  return message;
}

/** True for a {@link ReactorError} from any copy of the host. */
export function isReactorError(value: unknown): value is ReactorError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { brand?: unknown }).brand === BRAND &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

/** The message of anything thrown, without a stack. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return describeValue(error);
}

/**
 * Describes a value for an error message without dumping it: `a function`,
 * `an array of 3`, `the string "abc"` (shortened), `undefined`…
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      return `the string ${JSON.stringify(shown)}`;
    }
    case 'number':
    case 'bigint':
      return `the number ${String(value)}`;
    case 'boolean':
      return `${String(value)}`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default: {
      const ctor = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return typeof ctor === 'string' && ctor !== 'Object' && ctor !== '' ? `an instance of ${ctor}` : 'an object';
    }
  }
}

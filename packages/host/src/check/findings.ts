/**
 * What `checkExtension`, `checkPackage` and `reactor-mcp-server check` report:
 * one finding per problem, each with a stable code, the subject it is about,
 * what is wrong and what to do. Errors fail the check; warnings do not (unless
 * asked to); `info` findings carry figures such as a toolset's token cost.
 */

/** How much a finding matters: `error` fails the check. */
export type FindingSeverity = 'error' | 'warning' | 'info';

/** One thing the checker found. */
export interface CheckFinding {
  readonly severity: FindingSeverity;
  /** Stable, kebab-case: `annotation-missing`, `schema-type-union`, … (see {@link FindingCodes}). */
  readonly code: FindingCode;
  /** What it is about, with its kind and name: `tool "list_spaces" of extension "spaces"`. */
  readonly subject: string;
  /** What is wrong (or, for `info`, the figure). */
  readonly message: string;
  /** What to do about it. */
  readonly hint?: string;
}

/** Every code a finding may carry. Adding one is an API change; renaming one is a breaking change. */
export const FindingCodes = {
  /** The manifest is malformed (name, version, events, host range). */
  MANIFEST_INVALID: 'manifest-invalid',
  /** `toolsets()`, `tools()`, `resources()`, `prompts()` or `toolExtensions()` threw. */
  CONTRIBUTION_FAILED: 'contribution-failed',
  /** A toolset declaration is invalid. */
  TOOLSET_INVALID: 'toolset-invalid',
  /** A toolset, resource or prompt has no description. */
  DESCRIPTION_MISSING: 'description-missing',
  /** A tool spec is invalid (no description, no handler, bad schema shape). */
  TOOL_INVALID: 'tool-invalid',
  /** A tool name breaks SEP-986 (1–128 of A-Z a-z 0-9 . _ -). */
  TOOL_NAME: 'tool-name',
  /** A SEP-986 name that some clients still refuse (longer than 64, or with a dot). */
  TOOL_NAME_PORTABILITY: 'tool-name-portability',
  /** A tool has no title for clients to show. */
  TOOL_TITLE_MISSING: 'tool-title-missing',
  /** A tool leaves some of the four annotations unset. */
  ANNOTATION_MISSING: 'annotation-missing',
  /** Annotations that contradict each other. */
  ANNOTATION_CONTRADICTION: 'annotation-contradiction',
  /** A tool names a toolset its extension does not declare. */
  TOOLSET_UNDECLARED: 'toolset-undeclared',
  /** A schema cannot be converted to JSON Schema, or is not an object schema. */
  SCHEMA_UNCONVERTIBLE: 'schema-unconvertible',
  /** `type: ["string", "null"]`-style arrays. */
  SCHEMA_TYPE_UNION: 'schema-type-union',
  /** Keyword-less `{}` schemas. */
  SCHEMA_UNTYPED: 'schema-untyped',
  /** A bare `true`/`false` where a schema object is expected. */
  SCHEMA_BOOLEAN: 'schema-boolean',
  /** A `$ref` outside the document. */
  SCHEMA_REMOTE_REF: 'schema-remote-ref',
  /** zod's default ±9007199254740991 integer bounds. */
  SCHEMA_INTEGER_BOUNDS: 'schema-integer-bounds',
  /** A tool extension is malformed. */
  TOOL_EXTENSION_INVALID: 'tool-extension-invalid',
  /** The token cost of a toolset (info), or over the budget (warning). */
  TOOLSET_TOKENS: 'toolset-tokens',
  /** Token counts are estimates: no tokenizer is installed. */
  TOKENS_ESTIMATED: 'tokens-estimated',
  /** The host range is missing, invalid, excludes this host, or the host is not a peer dependency. */
  HOST_RANGE: 'host-range',
  /** The package.json (or its `reactorMcp` field) is missing or malformed. */
  PACKAGE_INVALID: 'package-invalid',
  /** A `reactorMcp` entry's module is missing or cannot be imported. */
  MODULE_MISSING: 'module-missing',
  /** The module's declarations differ from its `reactorMcp` entry. */
  DECLARATION_MISMATCH: 'declaration-mismatch',
  /** A held extension does not declare its toolsets (or activation events) in the field. */
  HELD_UNDECLARED: 'held-undeclared',
  /** A view (MCP Apps) is invalid: not a `ui://` URI, its HTML missing or over the size cap, a `ui://` resource not served as `text/html;profile=mcp-app`. */
  VIEW_INVALID: 'view-invalid',
  /** A view loads a script or stylesheet (or `@import`s one) from an origin its `csp` does not declare, or from a file beside it. */
  VIEW_EXTERNAL: 'view-external',
} as const;

/** One of {@link FindingCodes}' values. */
export type FindingCode = (typeof FindingCodes)[keyof typeof FindingCodes];

/** True when any finding is an error (or, with `strict`, a warning). */
export function failsCheck(findings: readonly CheckFinding[], strict = false): boolean {
  return findings.some((f) => f.severity === 'error' || (strict && f.severity === 'warning'));
}

/** Counts by severity. */
export function countFindings(findings: readonly CheckFinding[]): Record<FindingSeverity, number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/**
 * The public API, pinned: adding, removing or renaming an export of
 * `@reactor/host` fails here, so every API change is a visible, reviewed diff
 * (and needs a changeset). Tests outside this repo use these names.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as testing from './testing/index.js';

const VALUES = [
  'COMMAND_HELP', 'CORS_ALLOWED_HEADERS', 'CORS_EXPOSED_HEADERS', 'DEFAULT_ANSWER_TOKENS', 'DEPRECATED_NAME_META', 'EMPTY_SELECTION', 'EXTENSION_NAME_PATTERN', 'ErrorCodes', 'HOST_VERSION', 'LIST_SERVER_TOOLSETS', 'LOG_LEVELS', 'MIN_REQUEST_STATE_KEY_BYTES', 'McpHost', 'ReactorError', 'SELECTION_HEADER', 'SERVER_CARD_MEDIA_TYPE', 'TOOL_FILTER_HEADERS', 'TOOL_NAME_PATTERN', 'acceptedContent', 'activationKey', 'activeToolsets', 'answerBudget', 'answerTokenCounter', 'TASKS_EXTENSION', 'buildHost', 'capAnswer', 'capItems', 'createMcpApp', 'createMemoryTaskStore', 'createStderrLogger', 'cursorMismatch', 'decodeCursor', 'defineExtension', 'defineTool', 'describeValue', 'encodeCursor', 'fitAnswer', 'howToSelect', 'inputRequired', 'inputResponse', 'isExtension', 'isInputRequiredResult', 'isReactorError',
  'largestFitting', 'loadExtensions', 'mergeSelections', 'namesInSelection', 'omittedMarker', 'onToolset', 'parseCommandOptions', 'parseSelection', 'principalOf', 'readLimit', 'runCommand',
  'selectionToQuery', 'serveStdio', 'silentLogger', 'toCallToolResult', 'truncateMiddle', 'unknownNames',
];

const TYPES = [
  'AnswerBudget', 'AnyToolHandler', 'AuthSummary', 'BuildOptions', 'BuiltServer', 'CallToolResult', 'CatalogContext', 'CatalogRenderer', 'CommandAuthOptions', 'CommandDependencies', 'CommandOptions', 'CompletionContext', 'Completions', 'Conflict', 'DecodeCursorOptions', 'DeferredExtension', 'DeprecatedNameHint', 'DeriveOutputSchema', 'DescribeOptions', 'DescribedToolFilter', 'DescribedToolset', 'ErrorCode', 'ExtensionAvailability', 'ExtensionInput', 'ExtensionStartContext', 'ExtensionStatus', 'GetPromptResult', 'HealthzBody', 'HealthzExtension', 'HostChange', 'HostChangeListener', 'HostDescription', 'HostOptions', 'HostReport', 'InferSchema', 'InputRequiredResult', 'JsonSchemaObject', 'LimitSource', 'ListedResource', 'LoadExtensionsOptions', 'LogFn', 'LogLevel', 'Logger', 'McpApp', 'McpAppAuthOptions', 'McpAppHealthCheck', 'McpAppOptions', 'McpAppSessionOptions', 'McpAppTaskOptions', 'McpExtension', 'MemoryTaskStoreOptions', 'Middleware', 'MiddlewareCall', 'MiddlewareMethod', 'MiddlewareNext', 'OnServerContext', 'PluginManifest', 'Problem', 'PromptSpec', 'ReactorErrorDetails', 'ReactorMcpEntry', 'ReadResourceResult', 'ResourceSpec', 'RunningCommand', 'SchemaLike', 'Selection', 'SelectionInput', 'ServeStdioOptions', 'ServerCard', 'ServerCardOptions', 'ServerFactory', 'SessionClaim', 'SessionInitializeParams', 'SessionOwner', 'SessionRecord', 'SessionRegistry', 'SessionScopedEventStore', 'StandardSchemaLike', 'StdioServing', 'StructuredContentOf', 'TaskAnswer', 'TaskCounts', 'TaskCreation', 'TaskError', 'TaskLimits', 'TaskPatch', 'TaskRecord', 'TaskReporter', 'TaskStatus', 'TaskStore', 'TaskSupport', 'TelemetryOptions', 'TokenCounter', 'ToolAnnotations', 'ToolContext', 'ToolDefinition', 'ToolExtension', 'ToolHandle', 'ToolHandler', 'ToolResultOf', 'ToolSpec', 'ToolTokens', 'Toolset', 'ToolsetActivation', 'ToolsetsBody', 'Truncation', 'Unavailable',
];

/** Type-only exports leave no trace at run time: read them from the source. */
function typeExports(file: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  return [...source.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) => m[1]!.split(',').map((s) => s.trim()).filter(Boolean)).sort();
}

describe('the public API of @reactor/host', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual([...VALUES].sort());
  });

  it('exports exactly these types', () => {
    expect(typeExports('./index.ts')).toEqual([...TYPES].sort());
  });

  it('@reactor/host/testing exports the in-memory client, contexts, logs and the checker', () => {
    expect(Object.keys(testing).sort()).toEqual(['FindingCodes', 'captureLogger', 'checkExtension', 'checkPackage', 'connect', 'contractChecks', 'failsCheck', 'portabilityIssues', 'testContext']);
    // ConnectOptions and TestConnection were exported as interfaces before connect.ts; now they are re-exported by name.
    expect(typeExports('./testing/index.ts')).toEqual(
      ['CapturedLog', 'CheckExtensionOptions', 'CheckFinding', 'ConnectOptions', 'ContractCheck', 'ContractOptions', 'ExtensionCheck', 'ExtensionUnderTest', 'FindingCode', 'FindingSeverity', 'PackageCheck', 'PortabilityIssue', 'PortabilityRule', 'TestConnection', 'ToolsetCost'].sort(),
    );
  });

  it('re-exports by name only (no `export *`), so the list above is the whole API', () => {
    const source = readFileSync(new URL('./index.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/export \*/);
  });
});

/** The subpath entries: each pinned like the root (values at run time, types from the source). */
const ENTRIES = {
  './serve/http/index.ts': {
    values: ['CORS_ALLOWED_HEADERS', 'CORS_EXPOSED_HEADERS', 'SELECTION_HEADER', 'SERVER_CARD_MEDIA_TYPE', 'TOOL_FILTER_HEADERS', 'createMcpApp', 'createMemoryTaskStore'],
    types: ['CatalogContext', 'CatalogRenderer', 'HealthzBody', 'HealthzExtension', 'McpApp', 'McpAppAuthOptions', 'McpAppHealthCheck', 'McpAppOptions', 'McpAppSessionOptions', 'McpAppTaskOptions', 'MemoryTaskStoreOptions', 'ServerCard', 'ServerCardOptions', 'SessionClaim', 'SessionInitializeParams', 'SessionOwner', 'SessionRecord', 'SessionRegistry', 'SessionScopedEventStore', 'TaskAnswer', 'TaskCounts', 'TaskCreation', 'TaskError', 'TaskLimits', 'TaskPatch', 'TaskRecord', 'TaskStatus', 'TaskStore', 'ToolsetsBody'],
  },
  './serve/stdio.ts': { values: ['serveStdio'], types: [] },
  './discovery/index.ts': { values: ['loadExtensions'], types: ['LoadExtensionsOptions', 'ReactorMcpEntry'] },
  './command/index.ts': { values: ['COMMAND_HELP', 'parseCommandOptions', 'runCommand'], types: ['AuthSummary', 'CommandAuthOptions', 'CommandDependencies', 'CommandOptions', 'CommandRedis', 'CommandRedisOptions', 'RunningCommand'] },
  './auth/index.ts': {
    values: ['JWT_ALGORITHMS', 'StaticTokens', 'createIntrospectionVerifier', 'createJwtVerifier', 'discoverIssuer', 'hashToken', 'readTokensFile'],
    types: ['IntrospectionVerifierOptions', 'IssuerMetadata', 'JwtVerifier', 'JwtVerifierOptions', 'StaticTokenEntry'],
  },
} as const;

describe('the subpath entries of @reactor/host (http, stdio, discovery, command, auth)', () => {
  it('package.json maps each subpath to its entry module, source and build alike', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, Record<string, string>> };
    const subpaths = { './http': 'serve/http/index', './stdio': 'serve/stdio', './discovery': 'discovery/index', './command': 'command/index', './auth': 'auth/index' };
    for (const [subpath, module] of Object.entries(subpaths)) {
      expect(manifest.exports[subpath], subpath).toEqual({ '@reactor/source': `./src/${module}.ts`, types: `./dist/${module}.d.ts`, default: `./dist/${module}.js` });
    }
  });

  it.each(Object.entries(ENTRIES))('%s exports exactly its names', async (file, expected) => {
    const entry = (await import(file)) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual([...expected.values].sort());
    // The stdio module declares its types with `export interface`; an entry file re-exports them by name.
    if (file !== './serve/stdio.ts') expect(typeExports(file)).toEqual([...expected.types].sort());
    expect(readFileSync(new URL(file, import.meta.url), 'utf8')).not.toMatch(/export \*/);
  });

  it('a name the root also exports is the same object from both (one copy of the host)', async () => {
    for (const file of Object.keys(ENTRIES)) {
      const entry = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(entry)) if (name in api) expect((api as Record<string, unknown>)[name], `${file} ${name}`).toBe(value);
    }
  });
});

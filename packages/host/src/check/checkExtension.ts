/**
 * `checkExtension(extension)`: lints an extension object before it ships —
 * what the host would refuse (invalid manifest, tool specs, toolsets, schemas
 * it cannot convert) as errors, and what clients and models handle badly
 * (missing descriptions, titles and annotations, unportable schemas, costly
 * toolsets) as warnings. Reads contributions only: no handler, `onStart` or
 * `onServer` is called, so it is safe on any extension in any test runner.
 */
import semver from 'semver';
import { renderListEntry } from '../host/build/blueprint.js';
import { ErrorCodes, errorMessage, isReactorError } from '../kernel/errors.js';
import { assertValidManifest, type McpExtension } from '../contract/extension.js';
import { assertValidPrompt, assertValidResource } from '../contract/resource.js';
import { resolveSchema, type ResolvedSchema, type SchemaLike } from '../contract/schema.js';
import { assertValidToolSpec, TOOL_NAME_PATTERN, type ToolSpec } from '../contract/tool.js';
import { assertValidToolset, type Toolset } from '../contract/toolset.js';
import { HOST_VERSION } from '../kernel/version.js';
import { FindingCodes, type CheckFinding, type FindingCode } from './findings.js';
import { portabilityIssues, type PortabilityRule } from './portability.js';
import { tokenCounter, type TokenCounter } from './tokens.js';
import { checkUiResource, checkView } from './viewCheck.js';

/** A toolset's size and what it costs a model's context on every `tools/list`. */
export interface ToolsetCost {
  readonly name: string;
  /** The tools this extension puts in it, in order. */
  readonly tools: readonly string[];
  /** Tokens of its `tools/list` entries plus its instructions. */
  readonly tokens: number;
}

/** What {@link checkExtension} found. */
export interface ExtensionCheck {
  readonly extension: string;
  /** False when any finding is an error. */
  readonly ok: boolean;
  readonly findings: readonly CheckFinding[];
  readonly toolsets: readonly ToolsetCost[];
  /** `o200k_base` when `js-tiktoken` is installed, else `estimate` (characters / 4). */
  readonly tokenEncoding: TokenCounter['encoding'];
}

/** Options of {@link checkExtension}. */
export interface CheckExtensionOptions {
  /** A toolset costing more tokens than this gets a warning. Default 10 000. */
  readonly tokenBudget?: number;
}

const ANNOTATIONS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const RULE_CODES: Record<PortabilityRule, FindingCode> = {
  'type-union': FindingCodes.SCHEMA_TYPE_UNION,
  'untyped-schema': FindingCodes.SCHEMA_UNTYPED,
  'boolean-schema': FindingCodes.SCHEMA_BOOLEAN,
  'remote-ref': FindingCodes.SCHEMA_REMOTE_REF,
  'integer-bounds': FindingCodes.SCHEMA_INTEGER_BOUNDS,
};

/**
 * Checks one extension object: manifest, toolsets, tools (names per SEP-986,
 * descriptions, titles, all four annotations, schemas convertible and
 * portable), tool extensions, resources and prompts, and each toolset's token
 * cost. Never throws for a bad extension: everything wrong is a finding.
 */
export async function checkExtension(extension: McpExtension, options: CheckExtensionOptions = {}): Promise<ExtensionCheck> {
  const findings: CheckFinding[] = [];
  const add = (severity: CheckFinding['severity'], code: FindingCode, subject: string, message: string, hint?: string) =>
    findings.push({ severity, code, subject, message, ...(hint === undefined ? {} : { hint }) });
  const name = typeof extension?.manifest?.name === 'string' ? extension.manifest.name : '(unnamed)';
  const self = `extension "${name}"`;
  try {
    assertValidManifest(extension?.manifest);
    const range = extension.manifest.host;
    if (range !== undefined && !semver.satisfies(HOST_VERSION, range, { includePrerelease: true })) {
      add('error', FindingCodes.HOST_RANGE, self, `its host range "${range}" excludes this @reactor/host (${HOST_VERSION})`, 'widen manifest.host (or the peerDependencies range) to include the host it is tested with');
    }
  } catch (error) {
    add('error', FindingCodes.MANIFEST_INVALID, self, problemOf(error), hintOf(error));
  }

  const call = <T>(what: string, read: (() => T) | undefined, fallback: T): T => {
    if (read === undefined) return fallback;
    try {
      return read();
    } catch (error) {
      add('error', FindingCodes.CONTRIBUTION_FAILED, self, `${what}() threw: ${errorMessage(error)}`, `${what}() must be cheap and must not throw; the host would leave out all of this extension's contributions`);
      return fallback;
    }
  };
  const declared = call<Toolset[]>('toolsets', extension.toolsets?.bind(extension), [{ name }]);
  const toolsets = Array.isArray(declared) ? declared : [];
  for (const toolset of toolsets) {
    const subject = `toolset "${String(toolset?.name)}" of ${self}`;
    try {
      assertValidToolset(toolset, name);
    } catch (error) {
      add('error', FindingCodes.TOOLSET_INVALID, subject, problemOf(error), hintOf(error));
      continue;
    }
    if (extension.toolsets !== undefined && !toolset.description?.trim()) {
      add('warning', FindingCodes.DESCRIPTION_MISSING, subject, 'has no description, so a client listing toolsets (and a model choosing one) cannot tell what it is for', 'add description: "…" saying what the toolset is for');
    }
  }
  const own = new Set(toolsets.map((t) => t.name));
  const firstToolset = toolsets[0]?.name ?? name;

  const counter = await tokenCounter();
  const costs = new Map<string, { tools: string[]; tokens: number }>();
  for (const toolset of toolsets) costs.set(toolset.name, { tools: [], tokens: toolset.instructions ? counter.count(toolset.instructions) : 0 });

  const tools: unknown = call('tools', extension.tools?.bind(extension), []);
  const specs = (Array.isArray(tools) ? tools : []) as ReadonlyArray<ToolSpec<Record<string, unknown>>>;
  for (const spec of specs) {
    const subject = `tool ${typeof spec?.name === 'string' ? JSON.stringify(spec.name) : '(unnamed)'} of ${self}`;
    if (typeof spec?.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
      add('error', FindingCodes.TOOL_NAME, subject, 'its name breaks SEP-986: 1 to 128 characters of A-Z, a-z, 0-9, ".", "_" or "-"', 'use snake_case, e.g. "list_spaces"');
      continue;
    }
    try {
      assertValidToolSpec(spec as ToolSpec<unknown>, name);
    } catch (error) {
      add('error', isReactorError(error) && error.code === ErrorCodes.VIEW_INVALID ? FindingCodes.VIEW_INVALID : FindingCodes.TOOL_INVALID, subject, problemOf(error), hintOf(error));
      continue;
    }
    if (spec.view !== undefined) await checkView(spec.view, `view "${spec.view.uri}" of ${subject}`, add);
    if (spec.name.length > 64 || spec.name.includes('.')) {
      add('warning', FindingCodes.TOOL_NAME_PORTABILITY, subject, `its name is valid SEP-986 but ${spec.name.length > 64 ? 'longer than 64 characters' : 'contains "."'}, which some model APIs refuse in function names (^[a-zA-Z0-9_-]{1,64}$)`, 'prefer snake_case of at most 64 characters');
    }
    if (!spec.title?.trim()) add('warning', FindingCodes.TOOL_TITLE_MISSING, subject, 'has no title, so clients show its bare name', 'add title: "Launch Sandbox"');
    checkAnnotations(spec, subject, add);
    if (spec.toolset !== undefined && !own.has(spec.toolset)) {
      add('info', FindingCodes.TOOLSET_UNDECLARED, subject, `is in toolset "${spec.toolset}", which this extension does not declare; it is served only where another extension declares it`, `declare "${spec.toolset}" in toolsets(), or leave toolset out to use "${firstToolset}"`);
    }
    const input = schemaOf(spec.inputSchema, 'inputSchema', 'input', subject, add);
    const output = schemaOf(spec.outputSchema, 'outputSchema', 'output', subject, add);
    if (input === null || output === null) continue;
    const toolset = spec.toolset ?? firstToolset;
    const cost = costs.get(toolset) ?? { tools: [], tokens: 0 };
    costs.set(toolset, cost);
    cost.tools.push(spec.name);
    cost.tokens += counter.count(JSON.stringify(renderListEntry(spec, input, output?.json)));
  }

  const toolExtensions = call('toolExtensions', extension.toolExtensions?.bind(extension), []);
  for (const pair of Array.isArray(toolExtensions) ? toolExtensions : []) {
    const [target, ext] = Array.isArray(pair) ? (pair as [unknown, unknown]) : [undefined, undefined];
    const subject = `tool extension of ${typeof target === 'string' ? JSON.stringify(target) : '(no target)'} by ${self}`;
    if (typeof target !== 'string' || typeof ext !== 'object' || ext === null) {
      add('error', FindingCodes.TOOL_EXTENSION_INVALID, subject, 'is not a [toolName, { wrap?, inputSchema?, … }] pair', 'return [["list_spaces", { wrap: (original) => (args, ctx) => original(args, ctx) }]]');
      continue;
    }
    const te = ext as { wrap?: unknown; inputSchema?: SchemaLike; outputSchema?: SchemaLike | ((original: SchemaLike | undefined) => unknown); annotations?: unknown };
    if (te.wrap !== undefined && typeof te.wrap !== 'function') add('error', FindingCodes.TOOL_EXTENSION_INVALID, subject, '"wrap" is not a function', 'wrap: (original) => (args, ctx) => …');
    schemaOf(te.inputSchema, 'inputSchema', 'input', subject, add);
    // An output schema derived from the tool's own (a function) is known only once applied: the host checks it then.
    if (typeof te.outputSchema !== 'function' || '~standard' in te.outputSchema) schemaOf(te.outputSchema as SchemaLike | undefined, 'outputSchema', 'output', subject, add);
    if (te.annotations !== undefined) checkAnnotations({ annotations: te.annotations as ToolSpec['annotations'] }, subject, add);
  }

  for (const resource of call('resources', extension.resources?.bind(extension), []) ?? []) {
    const subject = `resource ${JSON.stringify(String(resource?.name))} of ${self}`;
    try {
      assertValidResource(resource, name);
      checkUiResource(resource, subject, add);
      if (!resource.description?.trim()) add('warning', FindingCodes.DESCRIPTION_MISSING, subject, 'has no description', 'say what the resource holds');
    } catch (error) {
      add('error', FindingCodes.CONTRIBUTION_FAILED, subject, problemOf(error), hintOf(error));
    }
  }
  for (const prompt of call('prompts', extension.prompts?.bind(extension), []) ?? []) {
    const subject = `prompt ${JSON.stringify(String(prompt?.name))} of ${self}`;
    try {
      assertValidPrompt(prompt, name);
      if (!prompt.description?.trim()) add('warning', FindingCodes.DESCRIPTION_MISSING, subject, 'has no description', 'say what the prompt is for');
      schemaOf(prompt.argsSchema, 'argsSchema', 'input', subject, add);
    } catch (error) {
      add('error', FindingCodes.CONTRIBUTION_FAILED, subject, problemOf(error), hintOf(error));
    }
  }

  const budget = options.tokenBudget ?? 10_000;
  const toolsetCosts = [...costs].map(([toolset, cost]): ToolsetCost => ({ name: toolset, tools: cost.tools, tokens: cost.tokens }));
  for (const cost of toolsetCosts) {
    const subject = `toolset "${cost.name}" of ${self}`;
    const figure = `${cost.tools.length} tool(s), ${cost.tokens} tokens (${counter.encoding}) on every tools/list`;
    if (cost.tokens > budget) add('warning', FindingCodes.TOOLSET_TOKENS, subject, `${figure}, over the budget of ${budget}`, 'shorten descriptions, drop schema noise, or split the toolset so a URL can ask for less');
    else add('info', FindingCodes.TOOLSET_TOKENS, subject, figure);
  }
  if (counter.encoding === 'estimate') {
    add('info', FindingCodes.TOKENS_ESTIMATED, self, 'token counts are estimates (characters / 4): no tokenizer is installed', 'install js-tiktoken (npm i -D js-tiktoken) for o200k_base counts');
  }
  return { extension: name, ok: !findings.some((f) => f.severity === 'error'), findings, toolsets: toolsetCosts, tokenEncoding: counter.encoding };
}

type Add = (severity: CheckFinding['severity'], code: FindingCode, subject: string, message: string, hint?: string) => void;

function checkAnnotations(spec: Pick<ToolSpec, 'annotations'>, subject: string, add: Add): void {
  const annotations = spec.annotations ?? {};
  const missing = ANNOTATIONS.filter((key) => typeof annotations[key] !== 'boolean');
  if (missing.length > 0) {
    add('warning', FindingCodes.ANNOTATION_MISSING, subject, `leaves ${missing.join(', ')} unset, so clients assume the worst (not read-only, destructive, not idempotent, open world)`, `set all four: annotations: { readOnlyHint, destructiveHint, idempotentHint, openWorldHint }`);
  }
  if (annotations.readOnlyHint === true && annotations.destructiveHint === true) {
    add('warning', FindingCodes.ANNOTATION_CONTRADICTION, subject, 'says readOnlyHint: true and destructiveHint: true; a read-only tool destroys nothing', 'set destructiveHint: false (it only means something when readOnlyHint is false)');
  }
}

/** Converts a schema as the host would; null when it cannot (reported), undefined when there is none. */
function schemaOf(schema: SchemaLike | undefined, key: string, io: 'input' | 'output', subject: string, add: Add): ResolvedSchema | null | undefined {
  if (schema === undefined) return undefined;
  let resolved: ResolvedSchema;
  try {
    resolved = resolveSchema(schema, io);
  } catch (error) {
    add('error', FindingCodes.SCHEMA_UNCONVERTIBLE, subject, `its ${key} cannot be converted to JSON Schema: ${problemOf(error)}`, hintOf(error) ?? 'use a zod schema (zod ≥ 4.2) or a plain JSON Schema object');
    return null;
  }
  if (resolved.json.type !== 'object') {
    add('error', FindingCodes.SCHEMA_UNCONVERTIBLE, subject, `its ${key} is not an object schema (type ${JSON.stringify(resolved.json.type)})`, 'MCP arguments and structured results are objects: wrap the value in a property');
    return null;
  }
  for (const issue of portabilityIssues(resolved.json, key)) {
    add(issue.severity, RULE_CODES[issue.rule], subject, `${issue.path}: ${issue.message}`, issue.hint);
  }
  return resolved;
}

function problemOf(error: unknown): string {
  if (!isReactorError(error)) return errorMessage(error);
  // The subject is the finding's own; keep the rest of the message.
  const message = error.message.startsWith(`${error.subject}: `) ? error.message.slice(error.subject.length + 2) : error.message;
  return message.replace(/; hint: .*$/, '');
}

function hintOf(error: unknown): string | undefined {
  return isReactorError(error) ? error.hint : undefined;
}

/**
 * Resources and prompts an extension offers at `mcp.resources` / `mcp.prompts`.
 * Like tools, they belong to a toolset and are served only where it is active.
 */
import { UriTemplate, type GetPromptResult, type InputRequiredResult, type ReadResourceResult, type ServerContext } from '@modelcontextprotocol/server';
import { describeValue, ErrorCodes, ReactorError } from '../kernel/errors.js';
import { isSchemaLike, type SchemaLike } from './schema.js';

export type { ReadResourceResult, GetPromptResult };

/** What a completion request says besides the value: the arguments already resolved (e.g. the chosen space). */
export interface CompletionContext {
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Completion callbacks by variable/argument name: the value typed so far →
 * suggestions. `context.arguments` holds the other arguments the client already has.
 */
export type Completions = {
  readonly [name: string]: (value: string, ctx: ServerContext | undefined, context: CompletionContext) => string[] | Promise<string[]>;
};

/** A resource (fixed `uri`) or a family of resources (RFC 6570 `template`). */
export interface ResourceSpec {
  /** Unique name among the extension's resources. */
  readonly name: string;
  /** A fixed URI, e.g. `spaces://sample/README.md`. Give this or `template`. */
  readonly uri?: string;
  /** An RFC 6570 URI template, e.g. `spaces://{space}/{+path}`. */
  readonly template?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Carried to the resource's `_meta` in `resources/list` (a fixed `uri` only), never interpreted by the host. */
  readonly meta?: Record<string, unknown>;
  /** The toolset it belongs to; default: its extension's first declared toolset. */
  readonly toolset?: string;
  /** Reads one resource; returns the protocol's `{ contents }` result (or an input-required result, 2026-07-28), passed through. */
  read(uri: URL, variables: Readonly<Record<string, string | string[]>>, ctx: ServerContext): ReadResourceResult | InputRequiredResult | Promise<ReadResourceResult | InputRequiredResult>;
  /** Lists a template's resources (for `resources/list`). */
  list?(ctx: ServerContext): ListedResource[] | Promise<ListedResource[]>;
  /** Completions for the template's variables. */
  readonly complete?: Completions;
  /** Clients may subscribe; `host.notifyResourceUpdated(uri)` tells them of changes. */
  readonly subscribe?: boolean;
}

/** One entry of a template's `list`. */
export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A prompt template. */
export interface PromptSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** Same forms as a tool's input schema (prompt arguments are strings on the wire). */
  readonly argsSchema?: SchemaLike;
  /** The toolset it belongs to; default: its extension's first declared toolset. */
  readonly toolset?: string;
  /**
   * Returns the protocol's `{ messages }` result, passed through — or an
   * input-required result (`inputRequired({ … })`, 2026-07-28): the client
   * fulfils its requests and asks again; its `requestState` is signed by the host.
   */
  get(args: Record<string, string | undefined>, ctx: ServerContext): GetPromptResult | InputRequiredResult | Promise<GetPromptResult | InputRequiredResult>;
  /** Completions for the prompt's arguments. */
  readonly complete?: Completions;
}

function invalid(code: typeof ErrorCodes.RESOURCE_INVALID | typeof ErrorCodes.PROMPT_INVALID, kind: string, name: unknown, extension: string, problem: string, expected: string, received: unknown): never {
  throw new ReactorError(code, {
    subject: `${kind} ${typeof name === 'string' ? JSON.stringify(name) : '(unnamed)'} of extension "${extension}"`,
    problem,
    expected,
    received: describeValue(received),
    hint: kind === 'resource' ? 'give name, uri or template, and read(uri, variables, ctx)' : 'give name and get(args, ctx)',
    extension,
  });
}

/** Checks a resource spec's shape. */
export function assertValidResource(spec: ResourceSpec, extension: string): void {
  const bad = (problem: string, expected: string, received: unknown) => invalid(ErrorCodes.RESOURCE_INVALID, 'resource', spec?.name, extension, problem, expected, received);
  if (typeof spec !== 'object' || spec === null) bad('is not a resource spec', 'an object', spec);
  if (typeof spec.name !== 'string' || spec.name === '') bad('has no name', 'a non-empty string', spec.name);
  if ((spec.uri === undefined) === (spec.template === undefined)) bad('needs exactly one of uri and template', 'uri or template', spec.uri ?? spec.template);
  if (spec.uri !== undefined && (typeof spec.uri !== 'string' || !URL.canParse(spec.uri))) bad('has an invalid uri', 'an absolute URI', spec.uri);
  if (spec.template !== undefined && typeof spec.template !== 'string') bad('has an invalid template', 'an RFC 6570 URI template string', spec.template);
  if (typeof spec.template === 'string') {
    try {
      new UriTemplate(spec.template);
    } catch (error) {
      bad(`has an invalid template (${error instanceof Error ? error.message : 'unparseable'})`, 'an RFC 6570 URI template such as "spaces://{space}/{+path}"', spec.template);
    }
  }
  assertCompletions(spec.complete, bad);
  if (typeof spec.read !== 'function') bad('has no read function', 'a function (uri, variables, ctx) => { contents }', spec.read);
  if (spec.list !== undefined && typeof spec.list !== 'function') bad('has an invalid list', 'a function', spec.list);
}

/** Checks a prompt spec's shape. */
export function assertValidPrompt(spec: PromptSpec, extension: string): void {
  const bad = (problem: string, expected: string, received: unknown) => invalid(ErrorCodes.PROMPT_INVALID, 'prompt', spec?.name, extension, problem, expected, received);
  if (typeof spec !== 'object' || spec === null) bad('is not a prompt spec', 'an object', spec);
  if (typeof spec.name !== 'string' || spec.name === '') bad('has no name', 'a non-empty string', spec.name);
  if (typeof spec.get !== 'function') bad('has no get function', 'a function (args, ctx) => { messages }', spec.get);
  if (spec.argsSchema !== undefined && !isSchemaLike(spec.argsSchema)) bad('has an invalid argsSchema', 'a zod object, a zod raw shape or a JSON Schema object', spec.argsSchema);
  assertCompletions(spec.complete, bad);
}

function assertCompletions(complete: unknown, bad: (problem: string, expected: string, received: unknown) => never): void {
  if (complete === undefined) return;
  if (typeof complete !== 'object' || complete === null) bad('has an invalid complete', 'an object of completion functions by name', complete);
  for (const [name, fn] of Object.entries(complete as Record<string, unknown>)) {
    if (typeof fn !== 'function') bad(`has an invalid completion for "${name}"`, 'a function (value, ctx) => string[]', fn);
  }
}

/**
 * A recording made an ordinary extension: its tools, resources and prompts
 * become contributions (selectable by toolset, extendable by ToolExtensions,
 * minted per selection from the blueprint), named and grouped by the options,
 * with provenance in descriptions and tool metadata and a report of what was
 * repaired or left out.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { createStderrLogger, defineExtension, type Completions, type ExtensionStartContext, type Logger, type McpExtension, type PromptSpec, type ResourceSpec, type ToolSpec, type Toolset } from '@reactor/host';
import { AdoptError, AdoptErrorCodes } from './errors.js';
import { handlerContext, runInCall, stampLiveServer } from './liveCall.js';
import { assertValidOptions, isValidToolName, matches, repairName, versionOf, type AdoptOptions } from './options.js';
import type { AdoptionNote, Recording, RecordedPrompt, RecordedResource, RecordedTool } from './recording.js';
import { completerOf, fieldsOf, toHostSchema } from './schemas.js';

/** How a server was adopted. */
export type AdoptionKind = 'recorded' | 'snapshot' | 'process' | 'remote';

/** What was adopted, and how: on the extension as `adoption`. */
export interface AdoptionReport {
  readonly extension: string;
  readonly how: AdoptionKind;
  readonly from: string | undefined;
  /** Each served tool: its name here, its name on the adopted server, its toolset. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly original: string; readonly toolset: string }>;
  readonly resources: readonly string[];
  readonly prompts: readonly string[];
  /** What was left out, repaired or assumed. */
  readonly notes: readonly AdoptionNote[];
}

/** An adopted server: an extension that also says what was adopted. */
export interface AdoptedExtension extends McpExtension {
  readonly adoption: AdoptionReport;
}

/** Lifecycle a way of adopting adds (a proxy's child process, a factory's cleanup). */
export interface AdoptionHooks {
  onStart?(): void | Promise<void>;
  onStop?(): void | Promise<void>;
}

/** What an adopted extension serves, made from one recording. */
interface AdoptedSurface {
  readonly toolsets: Toolset[];
  readonly tools: Array<ToolSpec<Record<string, unknown>>>;
  readonly resources: ResourceSpec[];
  readonly prompts: PromptSpec[];
  /** Tools the adopted server had disabled when it was recorded: disabled on each minted server. */
  readonly disabledAtStart: readonly string[];
  readonly adoption: AdoptionReport;
}

/** Per adopted extension: how to serve a new recording of the same server (a proxy's re-listing). */
const relistings = new WeakMap<McpExtension, (recording: Recording) => AdoptionReport | undefined>();

/**
 * Serves a new recording of an adopted server (its proxy listed it again):
 * the extension's contributions become the new recording's, and the host is
 * told to read them again. Returns the new report, or `undefined` when the
 * host could not take them (the extension is not serving, or the host kept
 * the old ones and reported why). Throws, changing nothing, when `strict`
 * refuses the new recording.
 */
export function serveRelisting(extension: AdoptedExtension, recording: Recording): AdoptionReport | undefined {
  const relist = relistings.get(extension);
  if (!relist) throw new Error(`extension "${extension.manifest.name}" was not made by adoptedExtension`);
  return relist(recording);
}

/** The `_meta` key adopted tools carry their provenance under. */
export const ADOPTED_META_KEY = 'io.reactor/adopted';

/** Builds the extension for a recording. Throws `REACTOR_ADOPT_REFUSED` under `strict` when anything is left out. */
export function adoptedExtension(recording: Recording, options: AdoptOptions, how: AdoptionKind, hooks: AdoptionHooks = {}): AdoptedExtension {
  assertValidOptions(options, how === 'process' ? 'adoptProcess' : how === 'remote' ? 'adoptRemote' : 'adoptServer');
  const from = options.from;
  const origin = from === undefined ? `adopted (${how})` : `adopted from ${from} (${how})`;
  const logger = (options.logger ?? createStderrLogger('warn')).child({ extension: options.name });
  let surface = surfaceOf(recording, options, how, logger);
  let started: ExtensionStartContext | undefined;
  const version = options.version ?? versionOf(from) ?? '0.0.0';
  const extension: AdoptedExtension = defineExtension({
    manifest: {
      name: options.name,
      version,
      description: `MCP server ${origin}`,
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.activationEvents !== undefined ? { activationEvents: [...options.activationEvents] } : {}),
    },
    get adoption() {
      return surface.adoption;
    },
    toolsets: () => surface.toolsets,
    tools: () => surface.tools,
    resources: () => surface.resources,
    prompts: () => surface.prompts,
    onServer(server, context) {
      stampLiveServer(server, context);
      for (const name of surface.disabledAtStart) context.tool(name)?.disable();
    },
    async onStart(context?: ExtensionStartContext) {
      // Absent when a test harness calls onStart itself: re-listings then change nothing served.
      started = context;
      await hooks.onStart?.();
    },
    async onStop() {
      started = undefined;
      try {
        await hooks.onStop?.();
      } finally {
        await recording.cleanup?.();
      }
    },
  });
  relistings.set(extension, (next) => {
    const previous = surface;
    surface = surfaceOf(next, options, how, logger);
    if (started?.contributionsChanged() === true) return surface.adoption;
    surface = previous;
    return undefined;
  });
  return extension;
}

/** The contributions and report of one recording, named and grouped by the options. Throws under `strict` when anything is left out. */
function surfaceOf(recording: Recording, options: AdoptOptions, how: AdoptionKind, logger: Logger): AdoptedSurface {
  const from = options.from;
  const origin = from === undefined ? `adopted (${how})` : `adopted from ${from} (${how})`;
  const notes: AdoptionNote[] = [...recording.notes];
  const main: Toolset = typeof options.toolset === 'object' ? options.toolset : { name: options.toolset ?? options.name };
  const home: Toolset = { ...main, ...(main.description === undefined ? { description: `Tools ${origin}.` } : {}), ...(main.instructions === undefined && recording.instructions ? { instructions: recording.instructions } : {}) };
  const declared = new Map<string, Toolset>([[home.name, home]]);
  for (const t of options.toolsets ?? []) if (!declared.has(t.name)) declared.set(t.name, t);

  const tools: Array<ToolSpec<Record<string, unknown>>> = [];
  const reportTools: Array<{ name: string; original: string; toolset: string }> = [];
  const disabledAtStart: string[] = [];
  const used = new Set<string>();
  for (const tool of recording.tools) {
    if (tool.state.removed) continue;
    if (options.include && !matches(tool.name, options.include)) continue;
    if (options.exclude && matches(tool.name, options.exclude)) continue;
    let name = options.rename?.[tool.name] ?? `${options.prefix ?? ''}${tool.name}`;
    if (!isValidToolName(name)) {
      const repaired = repairName(name);
      notes.push({ kind: 'repaired', subject: `tool "${tool.name}"`, reason: `its name ${JSON.stringify(name)} is not a valid tool name (SEP-986); served as "${repaired}"` });
      name = repaired;
    }
    if (used.has(name)) {
      notes.push({ kind: 'left-out', subject: `tool "${tool.name}"`, reason: `another adopted tool is already served as "${name}"; give one of them a new name with rename` });
      continue;
    }
    used.add(name);
    const toolset = options.group?.({ name: tool.name, ...(tool.title !== undefined ? { title: tool.title } : {}), ...(tool.description !== undefined ? { description: tool.description } : {}), ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}) }) ?? home.name;
    if (!declared.has(toolset)) declared.set(toolset, { name: toolset, ...(home.default === false ? { default: false } : {}), description: `Tools ${origin}.` });
    let description = tool.description;
    if (typeof description !== 'string' || description.trim() === '') {
      description = `${tool.title ?? tool.name} (${origin}; the server gave no description).`;
      notes.push({ kind: 'repaired', subject: `tool "${tool.name}"`, reason: 'it has no description; one naming the tool and its origin was written' });
    }
    tool.state.servedName = name;
    if (!tool.state.enabled) disabledAtStart.push(name);
    try {
      tools.push(toolSpec(tool, name, description, toolset, from, how, options.name));
      reportTools.push({ name, original: tool.name, toolset });
    } catch (error) {
      notes.push({ kind: 'left-out', subject: `tool "${tool.name}"`, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  const resources = recording.resources.filter((r) => !r.state.removed && r.state.enabled).map((r) => resourceSpec(r, home.name, options.name));
  const prompts = recording.prompts.filter((p) => !p.state.removed && p.state.enabled).map((p) => promptSpec(p, home.name, options.name));

  const leftOut = notes.filter((n) => n.kind === 'left-out');
  if (options.strict === true && leftOut.length > 0) {
    throw new AdoptError(AdoptErrorCodes.REFUSED, {
      subject: `adopted server "${options.name}"`,
      problem: `cannot be adopted faithfully (strict): ${leftOut.map((n) => `${n.subject}: ${n.reason}`).join('; ')}`,
      hint: 'leave strict off to serve the rest and get these listed in the report, or exclude what cannot be carried over',
    });
  }
  for (const note of notes) logger.warn({ adopted: options.name, kind: note.kind, subject: note.subject }, `adopted server "${options.name}": ${note.subject} ${note.kind === 'left-out' ? 'is left out' : note.kind === 'repaired' ? 'was repaired' : 'is served on an assumption'}: ${note.reason}`);

  const adoption: AdoptionReport = { extension: options.name, how, from, tools: reportTools, resources: resources.map((r) => r.name), prompts: prompts.map((p) => p.name), notes };
  return { toolsets: [...declared.values()], tools, resources, prompts, disabledAtStart, adoption };
}

function toolSpec(tool: RecordedTool, name: string, description: string, toolset: string, from: string | undefined, how: AdoptionKind, extension: string): ToolSpec<Record<string, unknown>> {
  const inputSchema = toHostSchema(tool.inputSchema);
  const outputSchema = toHostSchema(tool.outputSchema);
  const takesArgs = tool.inputSchema !== undefined;
  const callback = tool.callback as (...args: unknown[]) => unknown;
  return {
    name,
    description,
    toolset,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(inputSchema !== undefined ? { inputSchema } : {}),
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(tool.icons !== undefined ? { icons: tool.icons } : {}),
    meta: { ...tool.meta, [ADOPTED_META_KEY]: { how, name: tool.name, ...(from !== undefined ? { from } : {}) } },
    handler: (args, ctx) =>
      runInCall(ctx, () => {
        const extra = handlerContext(ctx, extension);
        return takesArgs ? callback(args, extra) : callback(extra);
      }),
  };
}

function completions(source: Readonly<Record<string, (...args: never[]) => unknown>>): Completions {
  const out: Record<string, Completions[string]> = {};
  for (const [name, fn] of Object.entries(source)) {
    const complete = fn as unknown as (value: string, context?: { arguments?: Record<string, string> }) => unknown;
    out[name] = async (value, ctx, context) => {
      const values = ctx ? await runInCall(ctx, () => complete(value, { arguments: { ...context.arguments } })) : await complete(value, { arguments: { ...context.arguments } });
      return Array.isArray(values) ? values.map(String) : [];
    };
  }
  return out;
}

function resourceSpec(resource: RecordedResource, toolset: string, extension: string): ResourceSpec {
  const callback = resource.callback as (...args: unknown[]) => unknown;
  const described = {
    name: resource.name,
    toolset,
    ...(resource.title !== undefined ? { title: resource.title } : {}),
    ...(resource.description !== undefined ? { description: resource.description } : {}),
    ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
  };
  if (resource.uri !== undefined) {
    return { ...described, uri: resource.uri, read: (uri, _variables, ctx) => runInCall(ctx, () => callback(uri, handlerContext(ctx, extension))) as ReturnType<ResourceSpec['read']> };
  }
  const template = resource.template!;
  const list = template.list as ((extra: unknown) => unknown) | undefined;
  return {
    ...described,
    template: template.uriTemplate,
    read: (uri, variables, ctx) => runInCall(ctx, () => callback(uri, variables, handlerContext(ctx, extension))) as ReturnType<ResourceSpec['read']>,
    ...(list ? { list: async (ctx: ServerContext) => ((await runInCall(ctx, () => list(handlerContext(ctx, extension)))) as { resources: Awaited<ReturnType<NonNullable<ResourceSpec['list']>>> }).resources } : {}),
    ...(template.complete ? { complete: completions(template.complete) } : {}),
  };
}

function promptSpec(prompt: RecordedPrompt, toolset: string, extension: string): PromptSpec {
  const callback = prompt.callback as (...args: unknown[]) => unknown;
  const argsSchema = toHostSchema(prompt.argsSchema);
  const takesArgs = prompt.argsSchema !== undefined;
  const completers: Record<string, (...args: never[]) => unknown> = { ...prompt.complete };
  for (const [field, schema] of Object.entries(fieldsOf(prompt.argsSchema))) {
    const complete = completerOf(schema);
    if (complete) completers[field] = complete;
  }
  return {
    name: prompt.name,
    toolset,
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    ...(argsSchema !== undefined ? { argsSchema } : {}),
    get: (args, ctx) => runInCall(ctx, () => (takesArgs ? callback(args, handlerContext(ctx, extension)) : callback(handlerContext(ctx, extension)))) as ReturnType<PromptSpec['get']>,
    ...(Object.keys(completers).length > 0 ? { complete: completions(completers) } : {}),
  };
}

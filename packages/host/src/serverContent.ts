/**
 * The resources, prompts and completions of a minted server. Like its tools,
 * they are served through low-level handlers over the blueprint's tables; an
 * `onServer` hook's `server.registerResource`/`registerPrompt` adds to this
 * server's own copy of a table (made only then), never to the blueprint.
 */
import type {
  ResourceTemplate} from '@modelcontextprotocol/server';
import {
  ProtocolError,
  ProtocolErrorCode,
  UriTemplate,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ErrorCodes, errorMessage } from './errors.js';
import type { Logger } from './logger.js';
import type { Completions, PromptSpec, ResourceSpec } from './resource.js';
import { resolveSchema, type JsonSchemaObject, type SchemaLike } from './schema.js';
import type { Blueprint, Offered } from './blueprint.js';

/** A server's resources and prompts: the blueprint's until a hook adds one. */
interface ServerContent {
  resources: ReadonlyArray<Offered<ResourceSpec>>;
  prompts: ReadonlyArray<Offered<PromptSpec>>;
}

/**
 * Installs the handlers a blueprint's resources, prompts and completions need,
 * and routes an `onServer` hook's `registerResource`/`registerPrompt` into this
 * server's tables (the SDK would otherwise refuse: the handlers already exist).
 */
export function installContent(server: McpServer, blueprint: Blueprint, subscriptions: Subscriptions, logger: Logger): void {
  const content: ServerContent = { resources: blueprint.resources, prompts: blueprint.prompts };
  if (content.resources.length > 0) {
    installResources(server, content, subscriptions, logger);
    server.registerResource = ((name: string, uriOrTemplate: string | ResourceTemplate, config: HookResourceConfig, read: HookReadCallback) => {
      const offered = { extension: 'onServer', spec: hookResource(name, uriOrTemplate, config, read) };
      content.resources = [...content.resources, offered];
      return removableHandle(() => (content.resources = content.resources.filter((r) => r !== offered)));
    }) as unknown as McpServer['registerResource'];
  }
  if (content.prompts.length > 0) {
    installPrompts(server, content);
    server.registerPrompt = ((name: string, config: HookPromptConfig, get: (...args: unknown[]) => unknown) => {
      const spec: PromptSpec = {
        name,
        ...(config.title !== undefined ? { title: config.title } : {}),
        ...(config.description !== undefined ? { description: config.description } : {}),
        ...(config.argsSchema !== undefined ? { argsSchema: config.argsSchema } : {}),
        get: (args, ctx) => (config.argsSchema !== undefined ? get(args, ctx) : get(ctx)) as ReturnType<PromptSpec['get']>,
      };
      const offered = { extension: 'onServer', spec };
      content.prompts = [...content.prompts, offered];
      return removableHandle(() => (content.prompts = content.prompts.filter((p) => p !== offered)));
    }) as unknown as McpServer['registerPrompt'];
  }
  if (content.resources.some((r) => r.spec.complete) || content.prompts.some((p) => p.spec.complete)) installCompletions(server, content);
}

type HookResourceConfig = { title?: string; description?: string; mimeType?: string };
type HookReadCallback = (uri: URL, variablesOrCtx: unknown, ctx?: unknown) => unknown;
type HookPromptConfig = { title?: string; description?: string; argsSchema?: SchemaLike };

function hookResource(name: string, uriOrTemplate: string | ResourceTemplate, config: HookResourceConfig, read: HookReadCallback): ResourceSpec {
  const described = {
    name,
    ...(config.title !== undefined ? { title: config.title } : {}),
    ...(config.description !== undefined ? { description: config.description } : {}),
    ...(config.mimeType !== undefined ? { mimeType: config.mimeType } : {}),
  };
  if (typeof uriOrTemplate === 'string') {
    return { ...described, uri: uriOrTemplate, read: (uri, _variables, ctx) => read(uri, ctx) as ReturnType<ResourceSpec['read']> };
  }
  const list = uriOrTemplate.listCallback;
  return {
    ...described,
    template: uriOrTemplate.uriTemplate.toString(),
    read: (uri, variables, ctx) => read(uri, variables, ctx) as ReturnType<ResourceSpec['read']>,
    ...(list ? { list: async (ctx: ServerContext) => (await list(ctx)).resources } : {}),
  };
}

/** The part of the SDK's Registered* handles a hook most needs: remove (and enable/disable as no-ops kept for shape). */
function removableHandle(remove: () => void): { enabled: boolean; enable(): void; disable(): void; remove(): void; update(): void } {
  return { enabled: true, enable: () => {}, disable: remove, remove, update: () => {} };
}

/** Which sessions subscribed to which resource URIs, for `host.notifyResourceUpdated`. */
export class Subscriptions {
  private readonly byServer = new Map<McpServer, Set<string>>();

  add(server: McpServer, uri: string): void {
    let set = this.byServer.get(server);
    if (!set) {
      set = new Set();
      this.byServer.set(server, set);
      const previous = server.server.onclose;
      server.server.onclose = () => {
        this.byServer.delete(server);
        previous?.();
      };
    }
    set.add(uri);
  }

  remove(server: McpServer, uri: string): void {
    this.byServer.get(server)?.delete(uri);
  }

  /** Tells every subscribed session; returns how many were told. */
  async notify(uri: string): Promise<number> {
    let told = 0;
    for (const [server, uris] of this.byServer) {
      if (!uris.has(uri)) continue;
      try {
        await server.server.sendResourceUpdated({ uri });
        told++;
      } catch {
        this.byServer.delete(server); // the session is gone
      }
    }
    return told;
  }
}

interface TemplateEntry {
  readonly offered: Offered<ResourceSpec>;
  readonly template: UriTemplate;
}

function installResources(server: McpServer, content: ServerContent, subscriptions: Subscriptions, logger: Logger): void {
  const low = server.server;
  const subscribable = content.resources.some((r) => r.spec.subscribe === true);
  low.registerCapabilities({ resources: subscribable ? { subscribe: true } : {} });
  // Indexed once per version of the table: the blueprint's, or this server's after a hook added one.
  let indexed: { source: ReadonlyArray<Offered<ResourceSpec>>; fixed: Map<string, Offered<ResourceSpec>>; templates: TemplateEntry[] } | undefined;
  const index = () => {
    if (indexed?.source === content.resources) return indexed;
    const fixed = new Map<string, Offered<ResourceSpec>>();
    const templates: TemplateEntry[] = [];
    for (const offered of content.resources) {
      if (offered.spec.uri !== undefined) fixed.set(offered.spec.uri, offered);
      else if (offered.spec.template !== undefined) templates.push({ offered, template: templateOf(offered.spec.template) });
    }
    return (indexed = { source: content.resources, fixed, templates });
  };
  low.setRequestHandler('resources/list', async (_request, ctx) => {
    const { fixed, templates } = index();
    const listed: Array<Record<string, unknown>> = [];
    for (const { spec } of fixed.values()) listed.push(describeResource(spec, spec.uri ?? ''));
    for (const { offered } of templates) {
      if (!offered.spec.list) continue;
      try {
        for (const item of await offered.spec.list(ctx)) listed.push({ ...(offered.spec.mimeType !== undefined ? { mimeType: offered.spec.mimeType } : {}), ...item });
      } catch (error) {
        // One template's failing list costs that template's entries, not everyone's.
        logger.error({ code: ErrorCodes.RESOURCE_INVALID, extension: offered.extension, resource: offered.spec.name }, `resource template "${offered.spec.name}" of extension "${offered.extension}": list() failed (${errorMessage(error)}); its resources are left out of resources/list`);
      }
    }
    return { resources: listed as never };
  });
  low.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: index().templates.map(({ offered: { spec } }) => ({
      name: spec.name,
      uriTemplate: spec.template ?? '',
      ...(spec.title !== undefined ? { title: spec.title } : {}),
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      ...(spec.mimeType !== undefined ? { mimeType: spec.mimeType } : {}),
    })),
  }));
  low.setRequestHandler('resources/read', async (request, ctx) => {
    const { fixed, templates } = index();
    const uri = request.params.uri;
    const exact = fixed.get(uri);
    if (exact) return await exact.spec.read(new URL(uri), {}, ctx);
    for (const { offered, template } of templates) {
      const variables = template.match(uri);
      if (variables) return await offered.spec.read(new URL(uri), variables, ctx);
    }
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource ${uri} not found`, { uri });
  });
  if (subscribable) {
    const canSubscribe = (uri: string) =>
      index().fixed.get(uri)?.spec.subscribe === true || index().templates.some(({ offered, template }) => offered.spec.subscribe === true && template.match(uri) !== null);
    low.setRequestHandler('resources/subscribe', (request) => {
      if (!canSubscribe(request.params.uri)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${request.params.uri} does not support subscriptions`);
      subscriptions.add(server, request.params.uri);
      return {};
    });
    low.setRequestHandler('resources/unsubscribe', (request) => {
      subscriptions.remove(server, request.params.uri);
      return {};
    });
  }
}

const templateCache = new Map<string, UriTemplate>();
function templateOf(source: string): UriTemplate {
  let template = templateCache.get(source);
  if (!template) {
    template = new UriTemplate(source);
    templateCache.set(source, template);
  }
  return template;
}

function describeResource(spec: ResourceSpec, uri: string): Record<string, unknown> {
  return {
    uri,
    name: spec.name,
    ...(spec.title !== undefined ? { title: spec.title } : {}),
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    ...(spec.mimeType !== undefined ? { mimeType: spec.mimeType } : {}),
  };
}

function promptArguments(spec: PromptSpec): Array<{ name: string; description?: string; required?: boolean }> {
  if (!spec.argsSchema) return [];
  const json: JsonSchemaObject = resolveSchema(spec.argsSchema, 'input').json;
  const properties = (json.properties ?? {}) as Record<string, { description?: unknown }>;
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
    required: required.has(name),
  }));
}

function installPrompts(server: McpServer, content: ServerContent): void {
  const low = server.server;
  low.registerCapabilities({ prompts: {} });
  low.setRequestHandler('prompts/list', () => ({
    prompts: content.prompts.map(({ spec }) => ({
      name: spec.name,
      ...(spec.title !== undefined ? { title: spec.title } : {}),
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      arguments: promptArguments(spec),
    })),
  }));
  low.setRequestHandler('prompts/get', async (request, ctx) => {
    const offered = content.prompts.find((p) => p.spec.name === request.params.name);
    if (!offered) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
    let args: Record<string, string | undefined> = request.params.arguments ?? {};
    if (offered.spec.argsSchema) {
      const checked = await resolveSchema(offered.spec.argsSchema, 'input').validate(args);
      if (!checked.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for prompt ${request.params.name}: ${checked.message}`);
      args = checked.value as Record<string, string | undefined>;
    }
    return await offered.spec.get(args, ctx);
  });
}

function installCompletions(server: McpServer, content: ServerContent): void {
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler('completion/complete', async (request, ctx: ServerContext) => {
    const { ref, argument } = request.params;
    let complete: Completions[string] | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = content.prompts.find((p) => p.spec.name === ref.name);
      if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
      complete = prompt.spec.complete?.[argument.name];
    } else if (ref.type === 'ref/resource') {
      const resource = content.resources.find((r) => r.spec.template === ref.uri || r.spec.uri === ref.uri);
      if (!resource) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource template ${ref.uri} not found`);
      complete = resource.spec.complete?.[argument.name];
    }
    // The protocol caps a completion at 100 values.
    const values = complete ? (await complete(argument.value, ctx, { arguments: request.params.context?.arguments ?? {} })).slice(0, 100) : [];
    return { completion: { values, total: values.length, hasMore: false } };
  });
}

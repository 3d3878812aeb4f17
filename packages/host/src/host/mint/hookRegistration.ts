/**
 * What an `onServer` hook's `server.registerTool`, `registerResource` and
 * `registerPrompt` do on a minted server.
 *
 * Why the SDK's own methods are shadowed: they install the SDK's request
 * handlers for `tools/*`, `resources/*` and `prompts/*`, and the SDK refuses a
 * second handler for a method the host already serves from its shared tables
 * ("A request handler for tools/list already exists"). So on each minted
 * server the host puts its own function on the instance (an own property that
 * shadows the prototype's method; the class is untouched) which adds to that
 * server's own copy of the table.
 *
 * What a hook gets back is the host's handle, not the SDK's `Registered*`
 * object: `enable`, `disable` and `remove` work; `update` works for tools and
 * throws for resources and prompts (remove and register again instead). This
 * is the one place that shadows SDK methods; the types below say what is
 * really accepted and returned.
 */
import type { McpServer, ResourceTemplate, ServerContext } from '@modelcontextprotocol/server';
import type { ToolHandle } from '../../contract/extension.js';
import type { PromptSpec, ResourceSpec } from '../../contract/resource.js';
import type { SchemaLike } from '../../contract/schema.js';
import type { ServeToolOptions } from '../build/blueprint.js';
import type { HookToolCallback, HookToolConfig, ServerToolTable } from './toolTable.js';
import type { ServerContent } from './contentTypes.js';

/** The handle a hook gets for a resource or prompt it registered. */
export interface HookContentHandle {
  /** False once disabled or removed (neither listed nor readable). */
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  remove(): void;
  /** Not supported for hook-registered resources and prompts: throws. */
  update(): never;
}

type HookResourceConfig = { title?: string; description?: string; mimeType?: string };
type HookReadCallback = (uri: URL, variablesOrCtx: unknown, ctx?: unknown) => unknown;
type HookPromptConfig = { title?: string; description?: string; argsSchema?: SchemaLike };
type HookPromptCallback = (...args: unknown[]) => unknown;

/**
 * Puts `impl` on this server instance in place of the SDK's method of that
 * name. `Object.defineProperty` rather than an assignment: the SDK declares
 * overloaded generic signatures the host's function does not claim to match.
 */
function shadow(server: McpServer, method: 'registerTool' | 'registerResource' | 'registerPrompt', impl: (...args: never[]) => unknown): void {
  Object.defineProperty(server, method, { value: impl, configurable: true, writable: true, enumerable: false });
}

/** `server.registerTool` from a hook: served on this server only, through its tool table. */
export function routeHookTools(server: McpServer, table: ServerToolTable, options: ServeToolOptions): void {
  shadow(server, 'registerTool', (name: string, config: HookToolConfig, callback: HookToolCallback): ToolHandle => table.addForeign(name, config, callback, options));
}

/** `server.registerResource` from a hook: added to this server's resource table. */
export function routeHookResources(server: McpServer, content: ServerContent): void {
  shadow(server, 'registerResource', (name: string, uriOrTemplate: string | ResourceTemplate, config: HookResourceConfig, read: HookReadCallback): HookContentHandle => {
    const offered = { extension: 'onServer', spec: hookResource(name, uriOrTemplate, config, read) };
    content.resources = [...content.resources, offered];
    if (offered.spec.complete) content.needCompletions();
    return contentHandle(`resource "${name}"`, {
      add: () => (content.resources = [...content.resources, offered]),
      take: () => (content.resources = content.resources.filter((r) => r !== offered)),
    });
  });
}

/** `server.registerPrompt` from a hook: added to this server's prompt table. */
export function routeHookPrompts(server: McpServer, content: ServerContent): void {
  shadow(server, 'registerPrompt', (name: string, config: HookPromptConfig, get: HookPromptCallback): HookContentHandle => {
    const spec: PromptSpec = {
      name,
      ...(config.title !== undefined ? { title: config.title } : {}),
      ...(config.description !== undefined ? { description: config.description } : {}),
      ...(config.argsSchema !== undefined ? { argsSchema: config.argsSchema } : {}),
      get: (args, ctx) => (config.argsSchema !== undefined ? get(args, ctx) : get(ctx)) as ReturnType<PromptSpec['get']>,
    };
    const offered = { extension: 'onServer', spec };
    content.prompts = [...content.prompts, offered];
    if (spec.complete) content.needCompletions();
    return contentHandle(`prompt "${name}"`, {
      add: () => (content.prompts = [...content.prompts, offered]),
      take: () => (content.prompts = content.prompts.filter((p) => p !== offered)),
    });
  });
}

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
  // The template's own completions, as a contributed template's `complete` (so completion/complete answers them).
  const complete: Record<string, NonNullable<ResourceSpec['complete']>[string]> = {};
  for (const variable of uriOrTemplate.uriTemplate.variableNames) {
    const callback = uriOrTemplate.completeCallback(variable);
    if (callback) complete[variable] = (value, _ctx, context) => callback(value, context);
  }
  return {
    ...described,
    template: uriOrTemplate.uriTemplate.toString(),
    read: (uri, variables, ctx) => read(uri, variables, ctx) as ReturnType<ResourceSpec['read']>,
    ...(list ? { list: async (ctx: ServerContext) => (await list(ctx)).resources } : {}),
    ...(Object.keys(complete).length > 0 ? { complete } : {}),
  };
}

/** A handle whose state follows the table: disabled and removed items are out of it. */
function contentHandle(what: string, table: { add(): void; take(): void }): HookContentHandle {
  let state: 'enabled' | 'disabled' | 'removed' = 'enabled';
  return {
    get enabled() {
      return state === 'enabled';
    },
    enable() {
      if (state !== 'disabled') return;
      table.add();
      state = 'enabled';
    },
    disable() {
      if (state !== 'enabled') return;
      table.take();
      state = 'disabled';
    },
    remove() {
      if (state === 'enabled') table.take();
      state = 'removed';
    },
    update(): never {
      throw new Error(`onServer: update() of the hook-registered ${what} is not supported; remove() it and register it again with the new values`);
    },
  };
}

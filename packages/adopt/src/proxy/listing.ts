/**
 * What a proxied server offers, listed through the client and made a
 * recording whose callbacks forward each call: tools (progress relayed,
 * cancellation propagated through the call's signal), resources, templates,
 * prompts and their completions.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerContext } from '@modelcontextprotocol/server';
import { currentCall } from '../liveCall.js';
import { emptyRecording, type Recording, type RecordedResource, type SdkCallback } from '../recording.js';
import { NO_CLIENT_TIMEOUT, type Upstream } from './upstream.js';

/** Where a proxied call goes: the upstream serving the current call. */
export type UpstreamFor = (ctx: ServerContext) => Upstream | Promise<Upstream>;

/** Lists everything the connected server offers (all pages). */
export async function listUpstream(client: Client, upstreamFor: UpstreamFor): Promise<Recording> {
  const recording = emptyRecording();
  const capabilities = client.getServerCapabilities() ?? {};
  const instructions = client.getInstructions();
  if (instructions) recording.instructions = instructions;
  const state = () => ({ enabled: true, removed: false });

  if (capabilities.tools) {
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      for (const tool of page.tools) {
        const name = tool.name;
        recording.tools.push({
          name,
          ...(tool.title !== undefined ? { title: tool.title } : {}),
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema,
          ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
          ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
          ...(tool.icons !== undefined ? { icons: tool.icons } : {}),
          ...(tool._meta !== undefined ? { meta: tool._meta } : {}),
          callback: (async (args: Record<string, unknown>, ctx: ServerContext) => callTool(await upstreamFor(ctx), name, args, ctx)),
          state: state(),
        });
      }
      cursor = page.nextCursor;
    }
  }
  if (capabilities.resources) {
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await client.listResources(cursor ? { cursor } : undefined);
      for (const resource of page.resources) {
        recording.resources.push({
          name: resource.name,
          uri: resource.uri,
          ...(resource.title !== undefined ? { title: resource.title } : {}),
          ...(resource.description !== undefined ? { description: resource.description } : {}),
          ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
          callback: (async (uri: URL, ctx: ServerContext) => (await upstreamFor(ctx)).request(ctx, `reading ${uri.href}`, (c) => c.readResource({ uri: uri.href }, { signal: ctx.mcpReq.signal }))),
          state: state(),
        });
      }
      cursor = page.nextCursor;
    }
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await client.listResourceTemplates(cursor ? { cursor } : undefined);
      for (const template of page.resourceTemplates) {
        const complete: Record<string, SdkCallback> = {};
        if (capabilities.completions) {
          for (const variable of templateVariables(template.uriTemplate)) {
            complete[variable] = completer(upstreamFor, { type: 'ref/resource', uri: template.uriTemplate }, variable);
          }
        }
        const recorded: RecordedResource = {
          name: template.name,
          template: { uriTemplate: template.uriTemplate, ...(Object.keys(complete).length > 0 ? { complete } : {}) },
          ...(template.title !== undefined ? { title: template.title } : {}),
          ...(template.description !== undefined ? { description: template.description } : {}),
          ...(template.mimeType !== undefined ? { mimeType: template.mimeType } : {}),
          callback: (async (uri: URL, _variables: unknown, ctx: ServerContext) => (await upstreamFor(ctx)).request(ctx, `reading ${uri.href}`, (c) => c.readResource({ uri: uri.href }, { signal: ctx.mcpReq.signal }))),
          state: state(),
        };
        recording.resources.push(recorded);
      }
      cursor = page.nextCursor;
    }
  }
  if (capabilities.prompts) {
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await client.listPrompts(cursor ? { cursor } : undefined);
      for (const prompt of page.prompts) {
        const name = prompt.name;
        const args = prompt.arguments ?? [];
        const argsSchema = args.length === 0 ? undefined : {
          type: 'object',
          properties: Object.fromEntries(args.map((a) => [a.name, { type: 'string', ...(a.description !== undefined ? { description: a.description } : {}) }])),
          required: args.filter((a) => a.required === true).map((a) => a.name),
        };
        const get = async (values: Record<string, string> | undefined, ctx: ServerContext) =>
          (await upstreamFor(ctx)).request(ctx, `getting prompt "${name}"`, (c) => c.getPrompt({ name, ...(values ? { arguments: values } : {}) }, { signal: ctx.mcpReq.signal }));
        const complete: Record<string, SdkCallback> = {};
        if (capabilities.completions) for (const a of args) complete[a.name] = completer(upstreamFor, { type: 'ref/prompt', name }, a.name);
        recording.prompts.push({
          name,
          ...(Object.keys(complete).length > 0 ? { complete } : {}),
          ...(prompt.title !== undefined ? { title: prompt.title } : {}),
          ...(prompt.description !== undefined ? { description: prompt.description } : {}),
          ...(argsSchema !== undefined ? { argsSchema } : {}),
          callback: (argsSchema === undefined ? (ctx: ServerContext) => get(undefined, ctx) : get),
          state: state(),
        });
      }
      cursor = page.nextCursor;
    }
  }
  return recording;
}

/** Forwards one tool call: progress relayed when the caller asked for it, the call's signal cancels upstream. */
async function callTool(upstream: Upstream, name: string, args: Record<string, unknown>, ctx: ServerContext): Promise<unknown> {
  const callerToken = ctx.mcpReq._meta?.progressToken;
  // Progress is relayed in order, and all of it before the result (Upstream.request waits for the relays).
  const progress = callerToken === undefined ? undefined : upstream.trackProgress(ctx, callerToken);
  try {
    return await upstream.request(ctx, `calling tool "${name}"`, (client) =>
      client.callTool({ name, arguments: args, ...(progress ? { _meta: { progressToken: progress.token } } : {}) }, undefined, { signal: ctx.mcpReq.signal, timeout: NO_CLIENT_TIMEOUT }),
    );
  } finally {
    progress?.done();
  }
}

function completer(upstreamFor: UpstreamFor, ref: { type: 'ref/resource'; uri: string } | { type: 'ref/prompt'; name: string }, argument: string): SdkCallback {
  return (async (value: string, context?: { arguments?: Record<string, string> }) => {
    const ctx = currentCall()?.ctx;
    if (!ctx) return [];
    const result = await (await upstreamFor(ctx)).request(ctx, `completing ${argument}`, (c) => c.complete({ ref, argument: { name: argument, value }, ...(context?.arguments ? { context: { arguments: context.arguments } } : {}) }));
    return result.completion.values;
  });
}

/** The variable names of an RFC 6570 template (`{a}`, `{+path}`, `{?x,y}`). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{([^}]+)\}/g)) {
    for (const part of (match[1] ?? '').replace(/^[+#./;?&]/, '').split(',')) names.push(part.replace(/[*]$|:\d+$/, ''));
  }
  return names;
}

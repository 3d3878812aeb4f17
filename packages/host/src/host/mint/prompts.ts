/**
 * A minted server's prompts: `prompts/list` and `prompts/get` as low-level SDK
 * handlers over the server's content table.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import type { PromptSpec } from '../../contract/resource.js';
import { resolveSchema, type JsonSchemaObject } from '../../contract/schema.js';
import type { HostStats } from '../../kernel/stats.js';
import { protocolErrorOnFailure } from './middlewareErrors.js';
import type { ContentServices, ServerContent } from './contentTypes.js';
import { NO_NOTES, type RequestNotes } from '../../telemetry/requestTelemetry.js';
import { networkTransportOf } from '../../telemetry/requestRecord.js';

function promptArguments(spec: PromptSpec, stats: HostStats): Array<{ name: string; description?: string; required?: boolean }> {
  if (!spec.argsSchema) return [];
  const json: JsonSchemaObject = resolveSchema(spec.argsSchema, 'input', stats).json;
  const properties = (json.properties ?? {}) as Record<string, { description?: unknown }>;
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
    required: required.has(name),
  }));
}

export function installPrompts(server: McpServer, content: ServerContent, { stats, requestState, middleware, telemetry }: Pick<ContentServices, 'stats' | 'requestState' | 'middleware' | 'telemetry'>, listChanged = false): void {
  const low = server.server;
  low.registerCapabilities({ prompts: listChanged ? { listChanged: true } : {} });
  low.setRequestHandler('prompts/list', () => ({
    prompts: content.prompts.map(({ spec }) => ({
      name: spec.name,
      ...(spec.title !== undefined ? { title: spec.title } : {}),
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      arguments: promptArguments(spec, stats),
    })),
  }));
  type GetRequest = { params: { name: string; arguments?: Record<string, string> | undefined } };
  const answer = async (request: GetRequest, ctx: Parameters<PromptSpec['get']>[1], notes: RequestNotes) => {
    const offered = content.prompts.find((p) => p.spec.name === request.params.name);
    if (!offered) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
    notes.offeredBy(offered.extension);
    if (!middleware) return await get(offered, request.params.name, request.params.arguments ?? {}, ctx);
    return await protocolErrorOnFailure(
      middleware.around('prompts/get', { name: request.params.name, arguments: request.params.arguments }, ctx, (args) =>
        get(offered, request.params.name, (args ?? {}) as Record<string, string | undefined>, ctx),
      ),
    );
  };
  low.setRequestHandler(
    'prompts/get',
    telemetry
      ? (request, ctx) => telemetry.around('prompts/get', request.params.name, ctx, low.getNegotiatedProtocolVersion(), (notes) => answer(request, ctx, notes), networkTransportOf(server))
      : (request, ctx) => answer(request, ctx, NO_NOTES),
  );
  const get = async (offered: ServerContent['prompts'][number], name: string, raw: Record<string, string | undefined>, ctx: Parameters<PromptSpec['get']>[1]) => {
    let args: Record<string, string | undefined> = raw;
    if (offered.spec.argsSchema) {
      const checked = await resolveSchema(offered.spec.argsSchema, 'input', stats).validate(args);
      if (!checked.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${checked.message}`);
      args = checked.value as Record<string, string | undefined>;
    }
    // An input-required result passes through, its requestState sealed (requestState.ts).
    const target = `prompts/get:${offered.spec.name}`;
    return await requestState.seal(await offered.spec.get(args, await requestState.open(ctx, target)), target, ctx);
  };
}

/**
 * A minted server's resources: `resources/list`, `resources/templates/list`,
 * `resources/read` and (when any resource is subscribable) subscriptions, as
 * low-level SDK handlers over the server's content table.
 */
import { ProtocolError, ProtocolErrorCode, UriTemplate, type McpServer } from '@modelcontextprotocol/server';
import { ErrorCodes, errorMessage } from '../../kernel/errors.js';
import { LruCache } from '../../kernel/lruCache.js';
import type { ResourceSpec } from '../../contract/resource.js';
import type { Offered } from '../build/blueprint.js';
import { protocolErrorOnFailure } from './middlewareErrors.js';
import type { ContentServices, ServerContent } from './contentTypes.js';
import { NO_NOTES, type RequestNotes } from '../../telemetry/requestTelemetry.js';
import { networkTransportOf } from '../../telemetry/requestRecord.js';

interface TemplateEntry {
  readonly offered: Offered<ResourceSpec>;
  readonly template: UriTemplate;
}

export function installResources(server: McpServer, content: ServerContent, { subscriptions, logger, problems, requestState, middleware, telemetry }: Pick<ContentServices, 'subscriptions' | 'logger' | 'problems' | 'requestState' | 'middleware' | 'telemetry'>, listChanged = false): void {
  const low = server.server;
  const subscribable = content.resources.some((r) => r.spec.subscribe === true);
  low.registerCapabilities({ resources: { ...(subscribable ? { subscribe: true } : {}), ...(listChanged ? { listChanged: true } : {}) } });
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
        problems.report(
          logger,
          { code: ErrorCodes.RESOURCE_INVALID, extension: offered.extension, subject: offered.spec.name, phase: 'call', message: `resource template "${offered.spec.name}" of extension "${offered.extension}": list() failed (${errorMessage(error)}); its resources are left out of resources/list` },
          { fields: { resource: offered.spec.name }, cause: error },
        );
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
  const read = async (uri: string, ctx: Parameters<ResourceSpec['read']>[2], notes: RequestNotes) => {
    const { fixed, templates } = index();
    const target = `resources/read:${uri}`;
    const exact = fixed.get(uri);
    if (exact) {
      notes.offeredBy(exact.extension);
      return await requestState.seal(await exact.spec.read(new URL(uri), {}, await requestState.open(ctx, target)), target, ctx);
    }
    for (const { offered, template } of templates) {
      const variables = template.match(uri);
      if (variables) {
        notes.offeredBy(offered.extension);
        return await requestState.seal(await offered.spec.read(new URL(uri), variables, await requestState.open(ctx, target)), target, ctx);
      }
    }
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource ${uri} not found`, { uri });
  };
  const answer = async (uri: string, ctx: Parameters<ResourceSpec['read']>[2], notes: RequestNotes) => {
    if (!middleware) return await read(uri, ctx, notes);
    return await protocolErrorOnFailure(middleware.around('resources/read', { uri, arguments: undefined }, ctx, () => read(uri, ctx, notes)));
  };
  low.setRequestHandler(
    'resources/read',
    telemetry
      ? (request, ctx) => telemetry.around('resources/read', request.params.uri, ctx, low.getNegotiatedProtocolVersion(), (notes) => answer(request.params.uri, ctx, notes), networkTransportOf(server))
      : (request, ctx) => answer(request.params.uri, ctx, NO_NOTES),
  );
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

/**
 * Parsed URI templates, shared by every server (parsing is the costly part of
 * indexing a table). Bounded: a host that keeps adding extensions with fresh
 * templates must not grow this for ever.
 */
const templates = new LruCache<string, UriTemplate>(512);
function templateOf(source: string): UriTemplate {
  return templates.getOrCreate(source, (s) => new UriTemplate(s));
}

function describeResource(spec: ResourceSpec, uri: string): Record<string, unknown> {
  return {
    uri,
    name: spec.name,
    ...(spec.title !== undefined ? { title: spec.title } : {}),
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    ...(spec.mimeType !== undefined ? { mimeType: spec.mimeType } : {}),
    ...(spec.meta !== undefined ? { _meta: spec.meta } : {}),
  };
}

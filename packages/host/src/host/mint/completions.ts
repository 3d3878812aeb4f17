/**
 * A minted server's `completion/complete` handler: answers from the
 * `complete` functions of its prompts and resource templates.
 */
import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { Completions } from '../../contract/resource.js';
import type { ServerContent } from './contentTypes.js';

export function installCompletions(server: McpServer, content: ServerContent): void {
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

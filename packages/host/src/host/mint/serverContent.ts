/**
 * The resources, prompts and completions of a minted server. Like its tools,
 * they are served through low-level handlers over the blueprint's tables; an
 * `onServer` hook's `server.registerResource`/`registerPrompt` adds to this
 * server's own copy of a table (made only then), never to the blueprint.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { Blueprint } from '../build/blueprint.js';
import type { ContentServices, ServerContent } from './contentTypes.js';
import { installCompletions } from './completions.js';
import { routeHookPrompts, routeHookResources } from './hookRegistration.js';
import { installPrompts } from './prompts.js';
import { installResources } from './resources.js';

/**
 * Installs the handlers a blueprint's resources, prompts and completions need,
 * and routes an `onServer` hook's `registerResource`/`registerPrompt` into this
 * server's tables (the SDK would otherwise refuse: the handlers already exist).
 */
export function installContent(server: McpServer, blueprint: Blueprint, services: ContentServices): void {
  let completing = false;
  const content: ServerContent = {
    resources: blueprint.resources,
    prompts: blueprint.prompts,
    needCompletions: () => {
      if (completing) return;
      completing = true;
      installCompletions(server, content);
    },
  };
  if (content.resources.length > 0) {
    installResources(server, content, services);
    routeHookResources(server, content);
  }
  if (content.prompts.length > 0) {
    installPrompts(server, content, services);
    routeHookPrompts(server, content);
  }
  if (content.resources.some((r) => r.spec.complete) || content.prompts.some((p) => p.spec.complete)) content.needCompletions();
}

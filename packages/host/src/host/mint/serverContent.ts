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

/** What a dynamic session's server changes when it moves to another blueprint. */
export interface ContentSwitch {
  /** Serves `next`'s resources and prompts from now on (with what `onServer` hooks added); says which lists changed. */
  switchTo(next: Blueprint): { readonly resources: boolean; readonly prompts: boolean };
}

/**
 * Installs the handlers a blueprint's resources, prompts and completions need,
 * and routes an `onServer` hook's `registerResource`/`registerPrompt` into this
 * server's tables (the SDK would otherwise refuse: the handlers already exist).
 *
 * With `changing` (a dynamic session's server, whose toolsets grow while it is
 * connected), every handler is installed up front and the lists advertise
 * `listChanged`: capabilities cannot be added once a client is connected, and
 * a toolset enabled later may bring the first resource or prompt. The switch
 * it returns moves the tables to another blueprint.
 */
export function installContent(server: McpServer, blueprint: Blueprint, services: ContentServices, changing = false): ContentSwitch | undefined {
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
  if (changing || content.resources.length > 0) {
    installResources(server, content, services, changing);
    routeHookResources(server, content);
  }
  if (changing || content.prompts.length > 0) {
    installPrompts(server, content, services, changing);
    routeHookPrompts(server, content);
  }
  if (changing || content.resources.some((r) => r.spec.complete) || content.prompts.some((p) => p.spec.complete)) content.needCompletions();
  if (!changing) return undefined;
  let current = blueprint;
  return {
    switchTo(next) {
      // What hooks added to this server's tables stays: only the blueprint's share is swapped.
      const hookResources = content.resources.filter((r) => !current.resources.includes(r));
      const hookPrompts = content.prompts.filter((p) => !current.prompts.includes(p));
      const names = (list: ReadonlyArray<{ readonly spec: { readonly name: string } }>) => list.map((o) => o.spec.name).join('\n');
      const resources = [...next.resources, ...hookResources];
      const prompts = [...next.prompts, ...hookPrompts];
      const changed = { resources: names(resources) !== names(content.resources), prompts: names(prompts) !== names(content.prompts) };
      content.resources = resources;
      content.prompts = prompts;
      current = next;
      return changed;
    },
  };
}

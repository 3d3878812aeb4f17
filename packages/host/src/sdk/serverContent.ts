/**
 * The resources, prompts and completions of a minted server. Like its tools,
 * they are served through low-level handlers over the blueprint's tables; an
 * `onServer` hook's `server.registerResource`/`registerPrompt` adds to this
 * server's own copy of a table (made only then), never to the blueprint.
 */
import type { ServerMiddleware } from '../middlewareCalls.js';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.js';
import type { ProblemLog } from '../problems.js';
import type { PromptSpec, ResourceSpec } from '../resource.js';
import type { HostStats } from '../stats.js';
import type { Blueprint, Offered } from '../blueprint.js';
import { installCompletions } from './completions.js';
import { routeHookPrompts, routeHookResources } from './hookRegistration.js';
import { installPrompts } from './prompts.js';
import { installResources } from './resources.js';
import type { SelectionRequestStateSeal } from './requestState.js';
import type { Subscriptions } from './subscriptions.js';
import type { RequestTelemetry } from '../telemetry/requestTelemetry.js';

/** A server's resources and prompts: the blueprint's until a hook adds one. */
export interface ServerContent {
  resources: ReadonlyArray<Offered<ResourceSpec>>;
  prompts: ReadonlyArray<Offered<PromptSpec>>;
  /** Installs the completion handler (once), for a hook that adds something completable. */
  needCompletions(): void;
}

/** What the content handlers use besides the tables. */
export interface ContentServices {
  readonly subscriptions: Subscriptions;
  readonly logger: Logger;
  /** Where a failure found while serving (a template's failing list()) is kept and logged. */
  readonly problems: ProblemLog;
  readonly stats: HostStats;
  /** Seals the `requestState` of input-required results and verifies it on the retry (prompts/get, resources/read). */
  readonly requestState: SelectionRequestStateSeal;
  /** The blueprint's middleware around `resources/read` and `prompts/get`, when any wraps them. */
  readonly middleware?: ServerMiddleware | undefined;
  /** Spans for `resources/read` and `prompts/get`, when the host traces. */
  readonly telemetry?: RequestTelemetry | undefined;
}

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

/**
 * The types the content handlers share: a server's resource and prompt tables
 * and the services they use. Apart from `serverContent.ts`, which installs the
 * handlers, so that each handler module imports these types without importing
 * the installer that imports it.
 */
import type { ServerMiddleware } from './middlewareCalls.js';
import type { Logger } from '../../kernel/logger.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { PromptSpec, ResourceSpec } from '../../contract/resource.js';
import type { HostStats } from '../../kernel/stats.js';
import type { Offered } from '../build/blueprint.js';
import type { SelectionRequestStateSeal } from './requestState.js';
import type { Subscriptions } from './subscriptions.js';
import type { RequestTelemetry } from '../../telemetry/requestTelemetry.js';

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

/**
 * The context manager a deployment's Node SDK registers. `reactor-mcp-server`
 * starts `@opentelemetry/sdk-node` when `OTEL_*` variables ask for it, and
 * that SDK registers OpenTelemetry's AsyncLocalStorage context manager
 * globally, so that what a tool does runs inside its call's span. The bench's
 * other telemetry hosts are handed their providers and register none. A server
 * process started with `--context-manager` registers it the way that SDK does,
 * so the telemetry phase can read what a deployment's set-up costs.
 *
 * It is process-wide (on Node 20 an AsyncLocalStorage in use hooks every
 * promise), so it gets a process of its own, never one shared with `/mcp`.
 */
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';

/** Registers the AsyncLocalStorage context manager globally; throws if another is registered already. */
export function registerContextManager(): void {
  if (!context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())) {
    throw new Error('another OpenTelemetry context manager is registered already: start this server in a process of its own');
  }
}

const PROBE = createContextKey('reactor-bench.contextProbe');

/** True when the active context follows an `await` (a context manager that propagates is registered). */
export async function contextFollowsAwait(): Promise<boolean> {
  return await context.with(ROOT_CONTEXT.setValue(PROBE, true), async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return context.active().getValue(PROBE) === true;
  });
}

/**
 * Running one request through a blueprint's middleware: builds what a layer
 * is told (`MiddlewareCall`) from the connection and the request, runs the
 * chain composed at assembly, and reports a layer's failure once, with its
 * extension. Servers of a blueprint without middleware never get here.
 */
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { Blueprint, ConnectionInfo, ServedTool } from '../build/blueprint.js';
import { ErrorCodes } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { MiddlewareFailure, type MiddlewareCall, type MiddlewareMethod } from '../../contract/middleware.js';
import type { ProblemLog } from '../../kernel/problems.js';
import { withRealSignal } from '../build/callSignal.js';
import { toCallToolResult, toolErrorResult, type InputRequiredResult } from '../../contract/tool.js';

/** Where a layer's failure is reported. */
export interface MiddlewareReporting {
  readonly logger: Logger;
  readonly problems: ProblemLog;
}

/** What a request tells its layers beyond the connection. */
export type RequestDetails = Pick<MiddlewareCall, 'name' | 'tool' | 'uri' | 'arguments'>;

/** Runs requests of one minted server through its blueprint's middleware. */
export interface ServerMiddleware {
  /**
   * Runs `terminal` through the chain for `method` (directly when no layer
   * wraps it). A layer's failure is reported and rethrown as a
   * {@link MiddlewareFailure}; the request's own errors pass through as they are.
   */
  around<T>(method: MiddlewareMethod, details: RequestDetails, ctx: ServerContext, terminal: (args: Record<string, unknown> | undefined) => Promise<T>): Promise<T>;
  /** `tools/call` through the chain: a layer's failure becomes an error result naming it (fail closed). */
  callTool(tool: ServedTool, calledAs: string, rawArgs: Record<string, unknown> | undefined, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult>;
}

/** The middleware runner of a server minted from `blueprint`, or `undefined` when no layer wraps anything. */
export function serverMiddleware(blueprint: Blueprint, connection: ConnectionInfo, reporting: MiddlewareReporting): ServerMiddleware | undefined {
  const chains = blueprint.middleware;
  if (Object.keys(chains).length === 0) return undefined;
  const toolsCall = chains['tools/call'];
  return {
    async around(method, details, ctx, terminal) {
      const chain = chains[method];
      if (!chain) return await terminal(details.arguments);
      try {
        return (await chain({ method, ...details, selection: connection.selection, toolsets: connection.toolsets, tenant: connection.tenant, ctx }, terminal)) as Awaited<ReturnType<typeof terminal>>;
      } catch (error) {
        // A layer's failure is reported once, here, and answered as the request's error.
        if (error instanceof MiddlewareFailure) report(error, method, reporting);
        throw error;
      }
    },
    async callTool(tool, calledAs, rawArgs, ctx) {
      // No layer wraps tools/call (others do): the call as the chain's end would make it.
      if (!toolsCall) return toCallToolResult(await tool.invoke(rawArgs, ctx, connection), false);
      // The object `around` makes for these details, key for key, as one literal: on Node 20 (V8 11.3) a literal
      // that spreads and then adds keys costs a microsecond or so, and every call through a layer made one.
      // Layers may pass the request's signal on: a real one, even where the host's own readers get a deferred one (sdk/deferredAbort.ts).
      const call: MiddlewareCall = { method: 'tools/call', name: calledAs, tool: toolDescription(tool), arguments: rawArgs, selection: connection.selection, toolsets: connection.toolsets, tenant: connection.tenant, ctx: withRealSignal(ctx) };
      try {
        // A layer may answer with any value a handler may return: converted the same way.
        return toCallToolResult(await toolsCall(call, (args) => tool.invoke(args, ctx, connection)), false);
      } catch (error) {
        if (!(error instanceof MiddlewareFailure)) throw error;
        // Reported once, as `around` reports one; a tools/call answers it as an error result (fail closed).
        report(error, 'tools/call', reporting);
        return toolErrorResult(error.message);
      }
    },
  };
}

const descriptions = new WeakMap<ServedTool, NonNullable<MiddlewareCall['tool']>>();

/**
 * What a layer is told of a served tool, made once per tool and frozen: every
 * call of the tool shares it, so a layer that wrote to it would change what
 * the next call's layers see — it fails that layer's call instead.
 */
function toolDescription(tool: ServedTool): NonNullable<MiddlewareCall['tool']> {
  let description = descriptions.get(tool);
  if (!description) {
    const annotations = tool.spec.annotations;
    description = Object.freeze(annotations !== undefined ? { name: tool.name, extension: tool.extension, toolset: tool.spec.toolset, annotations } : { name: tool.name, extension: tool.extension, toolset: tool.spec.toolset });
    descriptions.set(tool, description);
  }
  return description;
}

function report(failure: MiddlewareFailure, method: MiddlewareMethod, reporting: MiddlewareReporting): void {
  reporting.problems.report(
    reporting.logger,
    { code: ErrorCodes.MIDDLEWARE_FAILED, extension: failure.extension, subject: failure.middleware, message: failure.message, phase: 'call' },
    { fields: { middleware: failure.middleware, method } },
  );
}

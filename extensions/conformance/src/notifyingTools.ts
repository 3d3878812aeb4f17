/**
 * Tools that talk to the client while they run: log messages, progress
 * notifications, and a mid-call close of the response stream. They use the
 * SDK context the host hands every handler (`ctx.mcpReq`, `ctx.http`)
 * unchanged, so any wrapper in between must pass it through untouched.
 */
import { defineTool } from '@reactor/host';
import { NOTIFICATION_GAP_MS, pause } from './pause.js';

/** What `test_tool_with_logging` logs, in order, at `info`. */
export const LOG_MESSAGES = ['Tool execution started', 'Tool processing data', 'Tool execution completed'] as const;

/** The logger name the conformance tools log under. */
export const LOGGER_NAME = 'conformance';

/** `tools-call-with-logging`: three `info` log notifications ~50 ms apart. */
export const testToolWithLogging = defineTool({
  name: 'test_tool_with_logging',
  title: 'Tool with logging',
  description: 'Sends three info log notifications while it runs (conformance scenario tools-call-with-logging).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, ctx) => {
    for (const [index, message] of LOG_MESSAGES.entries()) {
      if (index > 0) await pause(NOTIFICATION_GAP_MS, ctx.signal);
      await ctx.mcpReq.log('info', message, LOGGER_NAME);
    }
    return `Logged ${LOG_MESSAGES.length} messages.`;
  },
});

/** The progress values `test_tool_with_progress` reports, out of {@link PROGRESS_TOTAL}. */
export const PROGRESS_STEPS = [0, 50, 100] as const;

/** The `total` of every progress notification. */
export const PROGRESS_TOTAL = 100;

/**
 * `tools-call-with-progress`: 0, 50 and 100 of 100, ~50 ms apart, sent only
 * when the request carried `_meta.progressToken` (the protocol forbids
 * progress for a request that did not ask for it).
 */
export const testToolWithProgress = defineTool({
  name: 'test_tool_with_progress',
  title: 'Tool with progress',
  description: 'Reports progress 0, 50 and 100 of 100 when the request carries a progress token (conformance scenario tools-call-with-progress).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (const [index, progress] of PROGRESS_STEPS.entries()) {
      if (index > 0) await pause(NOTIFICATION_GAP_MS, ctx.signal);
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: PROGRESS_TOTAL } });
      }
    }
    return progressToken === undefined
      ? 'Completed without progress notifications (the request carried no progress token).'
      : `Completed with ${PROGRESS_STEPS.length} progress notifications.`;
  },
});

/**
 * `server-sse-polling` (SEP-1699): closes this call's SSE stream before
 * answering, so the client must reconnect with `Last-Event-ID` and receive
 * the result from the server's event store. `ctx.http.closeSSE` exists only
 * on a Streamable HTTP session with an event store; elsewhere the tool just
 * answers on the open stream.
 */
export const testReconnection = defineTool({
  name: 'test_reconnection',
  title: 'Reconnection',
  description: 'Closes its response stream mid-call so the client must resume it with Last-Event-ID (conformance scenario server-sse-polling).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (_args, ctx) => {
    const closeStream = ctx.http?.closeSSE;
    if (closeStream === undefined) return 'Reconnection test completed without closing the stream (this transport has no event store to resume from).';
    // Let the priming event reach the client first, so it has an event id to resume from.
    await pause(NOTIFICATION_GAP_MS, ctx.signal);
    closeStream();
    await pause(NOTIFICATION_GAP_MS, ctx.signal);
    return 'Reconnection test completed: the stream was closed mid-call and the result delivered on resumption.';
  },
});

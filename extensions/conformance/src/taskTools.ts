/**
 * The fixtures of the conformance suite's `tasks-*` scenarios (SEP-2663, the
 * `io.modelcontextprotocol/tasks` extension of 2026-07-28). Each declares its
 * task support beside its other fields and keeps one handler; the host makes
 * the call a task when the client opted in, aborts `ctx.signal` on
 * `tasks/cancel`, and brings `tasks/update`'s answers back as
 * `ctx.mcpReq.inputResponses`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { acceptedContent, defineTool, inputRequired } from '@reactor/host';
import { z } from 'zod';

const confirmRequest = (message: string) =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } });

/** `greet`: sync-only. */
export const greet = defineTool({
  name: 'greet',
  description: 'Greets someone by name, in the call (never a task; conformance scenarios tasks-*).',
  inputSchema: { name: z.string().default('World') },
  annotations: { readOnlyHint: true },
  handler: ({ name }) => `Hello, ${name}!`,
});

/** `slow_compute`: a task when the client opted in; sleeps `seconds` (aborted by tasks/cancel), then answers. */
export const slowCompute = defineTool({
  name: 'slow_compute',
  description: 'Sleeps the given number of seconds, then answers; a task when the client opts in (conformance scenarios tasks-*).',
  inputSchema: { seconds: z.number().min(0).max(600).default(1), label: z.string().optional() },
  task: 'optional',
  timeoutMs: 700_000,
  handler: async ({ seconds, label }, ctx) => {
    ctx.task?.status(`Computing${label === undefined ? '' : ` ${label}`} for ${seconds} s.`);
    await sleep(seconds * 1000, undefined, { signal: ctx.signal });
    return `Computed${label === undefined ? '' : ` ${label}`} after ${seconds} s.`;
  },
});

/** `failing_job`: only as a task; reports a tool error after about a second. */
export const failingJob = defineTool({
  name: 'failing_job',
  description: 'Runs only as a task and reports a tool execution error after about a second (conformance scenarios tasks-*).',
  task: 'required',
  handler: async (_args, ctx) => {
    await sleep(1000, undefined, { signal: ctx.signal });
    throw new Error('failing_job failed on purpose: this tool always reports an error');
  },
});

/** `protocol_error_job`: a task whose result the protocol refuses, so the task fails with a JSON-RPC error. */
export const protocolErrorJob = defineTool({
  name: 'protocol_error_job',
  description: 'A task whose result is not a valid CallToolResult, so it fails with a JSON-RPC error rather than completing (conformance scenarios tasks-*).',
  task: 'optional',
  handler: () => ({ content: [{ type: 'not-a-content-type', text: 'invalid on purpose' }] }),
});

/** `confirm_delete`: a task that asks for a confirmation, then completes. */
export const confirmDelete = defineTool({
  name: 'confirm_delete',
  description: 'Asks the user to confirm deleting a file, then answers; a task when the client opts in (conformance scenarios tasks-mrtr-*).',
  inputSchema: { filename: z.string() },
  task: 'optional',
  handler: ({ filename }, ctx) => {
    const answer = acceptedContent<{ confirm?: unknown }>(ctx.mcpReq.inputResponses, 'confirm');
    if (answer === undefined) return inputRequired({ inputRequests: { confirm: confirmRequest(`Delete ${filename}?`) } });
    return answer.confirm === true ? `Deleted ${filename}.` : `Kept ${filename}.`;
  },
});

/** `multi_input`: a task that asks two questions at once. */
export const multiInput = defineTool({
  name: 'multi_input',
  description: 'Asks two questions at once, then answers with both; a task when the client opts in (conformance scenario tasks-mrtr-input).',
  task: 'optional',
  handler: (_args, ctx) => {
    const first = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'first');
    const second = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'second');
    if (first === undefined || second === undefined) {
      const ask = (message: string) => inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } } });
      return inputRequired({ inputRequests: { first: ask('First name?'), second: ask('Second name?') } });
    }
    return `Got ${String(first.name)} and ${String(second.name)}.`;
  },
});

const USER_NAME = inputRequired.elicit({ message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });

/** `test_tool_with_task`: asks a name in the call (beforeTask), then greets as a task. */
export const testToolWithTask = defineTool({
  name: 'test_tool_with_task',
  description: 'Asks for a name in the call, then runs as a task that greets it (conformance scenario tasks-mrtr-composition).',
  task: 'required',
  beforeTask: (_args, ctx) => {
    const answer = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'user_name');
    return typeof answer?.name === 'string' ? undefined : inputRequired({ inputRequests: { user_name: USER_NAME } });
  },
  handler: async (_args, ctx) => {
    const answer = acceptedContent<{ name?: unknown }>(ctx.mcpReq.inputResponses, 'user_name');
    await sleep(100, undefined, { signal: ctx.signal });
    return `Hello, ${String(answer?.name)}!`;
  },
});

/** Every fixture of the `tasks-*` scenarios. */
export const taskTools = [greet, slowCompute, failingJob, protocolErrorJob, confirmDelete, multiInput, testToolWithTask];

/**
 * The 2026-07-28 multi-round-trip pattern for tool, prompt and resource
 * handlers, re-exported from the SDK so an extension needs no SDK import:
 * return `inputRequired({ inputRequests, requestState })` when the answer
 * needs the user (elicitation), the client's model (sampling) or its roots;
 * the client fulfils the requests and calls again with `inputResponses`
 * (read them with `acceptedContent` / `inputResponse` from
 * `ctx.mcpReq.inputResponses`) and the echoed `requestState` (read it with
 * `ctx.mcpReq.requestState()`). The host signs `requestState` (see
 * `requestState.ts`); on a 2025 session the SDK fulfils the requests itself,
 * so one handler serves both protocol eras.
 */
export { acceptedContent, inputRequired, inputResponse, isInputRequiredResult } from '@modelcontextprotocol/server';

/**
 * `@reactor/host/testing`: test an extension through a real SDK client without
 * HTTP, or call a handler with a ready-made context and no server at all.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ToolContext } from '../contract/tool.js';

export { connect } from './connect.js';
export type { ConnectOptions, TestConnection } from './connect.js';

/**
 * A handler context for calling `tool.handler(args, ctx)` directly in a unit
 * test: logging goes to `logs`, sampling and elicitation reject unless given.
 */
export function testContext(overrides: {
  extension?: string;
  toolsets?: Iterable<string>;
  signal?: AbortSignal;
  requestSampling?: ServerContext['mcpReq']['requestSampling'];
  elicitInput?: ServerContext['mcpReq']['elicitInput'];
} = {}): ToolContext & { logs: Array<{ level: string; data: unknown }> } {
  const logs: Array<{ level: string; data: unknown }> = [];
  const signal = overrides.signal ?? new AbortController().signal;
  const unsupported = (what: string) => () => Promise.reject(new Error(`${what} is not available in testContext(); pass it in the overrides`));
  const mcpReq = {
    id: 0,
    method: 'tools/call',
    _meta: {},
    signal,
    send: unsupported('send'),
    notify: () => Promise.resolve(),
    log: (level: string, data: unknown) => {
      logs.push({ level, data });
      return Promise.resolve();
    },
    requestSampling: overrides.requestSampling ?? unsupported('requestSampling'),
    elicitInput: overrides.elicitInput ?? unsupported('elicitInput'),
  };
  return {
    sessionId: undefined,
    mcpReq,
    extension: overrides.extension ?? 'test',
    toolsets: new Set(overrides.toolsets ?? []),
    signal,
    logs,
  } as unknown as ToolContext & { logs: Array<{ level: string; data: unknown }> };
}

export { captureLogger } from './captureLogger.js';
export { checkExtension } from '../check/checkExtension.js';
export type { ExtensionCheck, CheckExtensionOptions, ToolsetCost } from '../check/checkExtension.js';
export { checkPackage } from '../check/checkPackage.js';
export type { PackageCheck } from '../check/checkPackage.js';
export { FindingCodes, failsCheck } from '../check/findings.js';
export type { CheckFinding, FindingCode, FindingSeverity } from '../check/findings.js';
export { portabilityIssues } from '../check/portability.js';
export { contractChecks } from './contract.js';
export type { ContractOptions, ContractCheck, ExtensionUnderTest } from './contract.js';
export type { PortabilityIssue, PortabilityRule } from '../check/portability.js';
export type { CapturedLog } from './captureLogger.js';

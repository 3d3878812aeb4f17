/**
 * The `conformance-passthrough` extension: extends every conformance tool
 * with a wrapper that only calls the original. Served together with
 * `conformance`, the suite then checks that wrapping is transparent — that
 * progress, logging, sampling and elicitation still reach the client through
 * a wrapper, because the wrapper hands on the SDK context it was given.
 */
import { defineExtension, type AnyToolHandler, type McpExtension, type ToolExtension } from '@reactor/host';
import { CONFORMANCE_VERSION } from './conformance.js';
import { CONFORMANCE_TOOL_NAMES } from './tools.js';

/** Options of {@link createConformancePassthrough}. */
export interface ConformancePassthroughOptions {
  /** Called with the tool's name each time a wrapper runs (tests use it to see the wrapper is in the path). */
  readonly onCall?: (tool: string) => void;
}

/** A pass-through tool extension of `tool`: the original, called with the same args and context. */
export function passthroughOf(tool: string, options: ConformancePassthroughOptions = {}): ToolExtension {
  const { onCall } = options;
  return {
    wrap: (original: AnyToolHandler): AnyToolHandler =>
      onCall === undefined
        ? (args, ctx) => original(args, ctx)
        : (args, ctx) => {
            onCall(tool);
            return original(args, ctx);
          },
  };
}

/** Makes the pass-through extension; `options.onCall` observes its wrappers. */
export function createConformancePassthrough(options: ConformancePassthroughOptions = {}): McpExtension {
  return defineExtension({
    manifest: {
      name: 'conformance-passthrough',
      version: CONFORMANCE_VERSION,
      title: 'MCP conformance pass-through',
      description: 'Wraps every conformance tool in a wrapper that only calls the original, to show wrappers are transparent.',
      dependencies: ['conformance'],
    },
    // Every extension has a toolset; this one's holds no tool, so say what it is for.
    toolsets: () => [
      {
        name: 'conformance-passthrough',
        title: 'MCP conformance pass-through',
        description: 'No tools of its own: wraps every conformance tool in a pass-through wrapper.',
      },
    ],
    toolExtensions: () => CONFORMANCE_TOOL_NAMES.map((name): [string, ToolExtension] => [name, passthroughOf(name, options)]),
  });
}

/** The pass-through extension, as discovery loads it. */
export const conformancePassthrough = createConformancePassthrough();

export default conformancePassthrough;

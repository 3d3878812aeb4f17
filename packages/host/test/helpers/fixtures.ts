/**
 * A small, fully inline host for the HTTP tests: an `always` toolset, a
 * default one, an opt-in one, and an opt-in one whose extension is held until
 * its toolset is asked for.
 *
 * | toolset      | kind            | tools                    |
 * |--------------|-----------------|--------------------------|
 * | `core`       | always          | `whoami`                 |
 * | `spaces`     | default         | `list_spaces`            |
 * | `library`    | opt-in          | `find_book`              |
 * | `benchmarks` | opt-in, held    | `run_benchmark`          |
 */
import { z } from 'zod';
import { buildHost, defineExtension, defineTool, silentLogger, type DeferredExtension, type HostOptions, type McpExtension, type McpHost } from '../../src/index.js';

/** What `whoami` answers: who is calling, over what. */
export interface WhoAmI {
  clientId: string | null;
  sessionId: string | null;
  toolsets: string[];
}

export const core = defineExtension({
  manifest: { name: 'core', version: '1.0.0' },
  toolsets: () => [{ name: 'core', always: true, title: 'Core', description: 'Always there.' }],
  tools: () => [
    defineTool({
      name: 'whoami',
      description: 'Who is calling, over which session, with which toolsets.',
      handler: (_args, ctx): WhoAmI => ({
        clientId: ctx.http?.authInfo?.clientId ?? null,
        sessionId: ctx.sessionId ?? null,
        toolsets: [...ctx.toolsets].sort(),
      }),
    }),
  ],
});

export const spaces = defineExtension({
  manifest: { name: 'spaces', version: '1.0.0' },
  toolsets: () => [{ name: 'spaces', title: 'Spaces', description: 'Workspaces.', instructions: 'Spaces: list them first.' }],
  tools: () => [defineTool({ name: 'list_spaces', description: 'List the spaces.', handler: () => ['alpha', 'beta'] })],
});

export const library = defineExtension({
  manifest: { name: 'library', version: '1.0.0' },
  toolsets: () => [{ name: 'library', default: false, description: 'Books.', instructions: 'Library: search by title.' }],
  tools: () => [
    defineTool({
      name: 'find_book',
      description: 'Find a book by title.',
      inputSchema: z.object({ title: z.string() }),
      handler: ({ title }) => `found ${title}`,
    }),
  ],
});

const benchmarksToolset = { name: 'benchmarks', default: false, description: 'Benchmark runs.', instructions: 'Benchmarks: read a run.' };

/** The held extension, with a count of how often its module was "imported". */
export function heldBenchmarks(): DeferredExtension & { loads: () => number } {
  let loads = 0;
  const extension: McpExtension = defineExtension({
    manifest: { name: 'benchmarks', version: '1.0.0', activationEvents: ['onToolset:benchmarks'] },
    toolsets: () => [benchmarksToolset],
    tools: () => [defineTool({ name: 'run_benchmark', description: 'Read a benchmark run.', handler: () => 'run 1: ok' })],
  });
  return {
    kind: 'deferred',
    manifest: extension.manifest,
    toolsets: [benchmarksToolset],
    package: 'benchmarks@1.0.0',
    load: () => {
      loads++;
      return Promise.resolve(extension);
    },
    loads: () => loads,
  };
}

/** Builds the fixture host (silent unless a logger is given); pass `held` to count its loads. */
export async function fixtureHost(options: HostOptions = {}, extra: McpExtension[] = [], held: DeferredExtension = heldBenchmarks()): Promise<McpHost> {
  return await buildHost([core, spaces, library, held, ...extra], { name: 'fixture', logger: silentLogger, ...options });
}

/** A host with `count` tools in one default toolset, for the counting tests. */
export async function manyToolsHost(count: number, options: HostOptions = {}): Promise<McpHost> {
  const many = defineExtension({
    manifest: { name: 'many', version: '1.0.0' },
    toolsets: () => [{ name: 'many' }],
    tools: () =>
      Array.from({ length: count }, (_, i) =>
        defineTool({
          name: `tool_${i}`,
          description: `Tool number ${i}.`,
          inputSchema: z.object({ n: z.number().optional() }),
          handler: ({ n }) => `tool ${i}: ${n ?? 0}`,
        }),
      ),
  });
  return await buildHost([many], { name: 'many', logger: silentLogger, ...options });
}

/**
 * The extension contract as a battery of named checks, runnable from any test
 * runner (`describeExtensionContract` in `@reactor/host/testing/vitest` maps
 * them onto `describe`/`it`). Each check builds its own host and stops it, so
 * they run in any order.
 */
import assert from 'node:assert/strict';
import { buildHost, type HostOptions } from '../host/host.js';
import type { McpExtension } from '../contract/extension.js';
import { silentLogger } from '../kernel/logger.js';
import { parseSelection } from '../selection/selection.js';
import type { ToolSpec } from '../contract/tool.js';
import type { Toolset } from '../contract/toolset.js';
import { checkExtension } from '../check/checkExtension.js';
import { connect } from './connect.js';

/** What the battery needs from the author. */
export interface ContractOptions {
  /** A sample input per tool name; every tool must have one (`{}` for a tool without arguments). */
  readonly samples: Readonly<Record<string, Record<string, unknown>>>;
  /** Tools whose answer may differ between two identical calls (clocks, randomness), so idempotence is not compared. */
  readonly nondeterministic?: readonly string[];
  /** Host options for every host the battery builds (time limits…); `logger` defaults to silent. */
  readonly hostOptions?: HostOptions;
}

/** One check of the battery. */
export interface ContractCheck {
  /** Reads as a test name: `tool "echo" answers its sample input`. */
  readonly name: string;
  run(): Promise<void>;
}

/** The extension itself, or a factory making a fresh one for each check. */
export type ExtensionUnderTest = McpExtension | (() => McpExtension | Promise<McpExtension>);

type Spied = { extension: McpExtension; calls: Map<string, number> };

/** Wraps an extension so every method call is counted, `this` kept (classes work). */
function spy(extension: McpExtension): Spied {
  const calls = new Map<string, number>();
  const proxy = new Proxy(extension, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]): unknown => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { extension: proxy, calls };
}

/**
 * The standard battery for one extension: the checker finds no error; it lists
 * its toolsets without starting (a held one has nothing but its manifest and
 * `toolsets()` read); it starts and stops; every tool answers its sample input,
 * and a tool that says it is read-only or idempotent answers the same twice;
 * `onServer` runs only on servers where one of its toolsets is active.
 */
export async function contractChecks(subject: ExtensionUnderTest, options: ContractOptions): Promise<ContractCheck[]> {
  const fresh = async () => spy(typeof subject === 'function' ? await subject() : subject);
  const probe = typeof subject === 'function' ? await subject() : subject;
  const name = probe.manifest.name;
  let toolsets: readonly Toolset[] = [{ name }];
  try {
    if (typeof probe.toolsets === 'function') toolsets = probe.toolsets();
  } catch {
    toolsets = []; // the listing check calls toolsets() again and fails with its error
  }
  const own = toolsets.map((t) => t.name);
  const held = (probe.manifest.activationEvents ?? []).length > 0;
  const hostOptions: HostOptions = { logger: silentLogger, ...options.hostOptions, strict: true };
  const withHost = async <T>(run: (spied: Spied, host: Awaited<ReturnType<typeof buildHost>>) => Promise<T>): Promise<T> => {
    const spied = await fresh();
    const host = await buildHost([spied.extension], hostOptions);
    try {
      return await run(spied, host);
    } finally {
      await host.stop();
    }
  };
  const activeOnly = `only=${own.join(',')}`;

  const checks: ContractCheck[] = [
    {
      name: 'reactor-mcp-server check finds no error',
      run: async () => {
        const check = await checkExtension(probe);
        assert.deepEqual(check.findings.filter((f) => f.severity === 'error'), []);
      },
    },
    {
      name: held ? 'is listed while held: only its manifest and toolsets() are read' : 'lists its toolsets before it starts',
      run: async () => {
        const spied = await fresh();
        const declared = typeof spied.extension.toolsets === 'function' ? spied.extension.toolsets() : [{ name }];
        assert.equal(spied.calls.get('onStart') ?? 0, 0, 'toolsets() must not need onStart');
        assert.deepEqual(declared.map((t) => t.name), own, 'toolsets() must answer the same every time (cheap, no side effects)');
        const host = await buildHost([spied.extension], hostOptions);
        try {
          assert.deepEqual(host.declaredToolsets().filter((t) => own.includes(t.name)).map((t) => t.name).sort(), [...own].sort());
          if (held) {
            const touched = [...spied.calls.keys()].filter((key) => key !== 'toolsets');
            assert.deepEqual(touched, [], `a held extension must not be called before it wakes; called: ${touched.join(', ')}`);
          }
        } finally {
          await host.stop();
        }
      },
    },
    {
      name: 'starts once when its toolsets are asked for, and stops',
      run: async () => {
        const spied = await fresh();
        const host = await buildHost([spied.extension], hostOptions);
        await host.build(parseSelection(activeOnly));
        const status = host.report().extensions.find((e) => e.name === name);
        assert.equal(status?.state, 'active', `extension "${name}" should be active once its toolsets are asked for`);
        if (typeof probe.onStart === 'function') assert.equal(spied.calls.get('onStart'), 1, 'onStart runs exactly once');
        await host.stop();
        if (typeof probe.onStop === 'function') assert.equal(spied.calls.get('onStop'), 1, 'onStop runs exactly once on host.stop()');
      },
    },
  ];

  const tools = (typeof probe.tools === 'function' ? probe.tools() : []) as ReadonlyArray<ToolSpec<Record<string, unknown>>>;
  for (const tool of tools) {
    checks.push({
      name: `tool "${tool.name}" answers its sample input${tool.annotations?.readOnlyHint || tool.annotations?.idempotentHint ? ' (the same twice, as its annotations say)' : ''}`,
      run: () =>
        withHost(async (_spied, host) => {
          const sample = options.samples[tool.name];
          assert.ok(sample !== undefined, `no sample input for tool "${tool.name}": add samples: { ${tool.name}: { … } } to the contract options`);
          const connection = await connect(host, { selection: activeOnly });
          try {
            assert.ok((await connection.toolNames()).includes(tool.name), `tool "${tool.name}" is not listed where its toolset is active`);
            const first = await connection.callTool(tool.name, sample);
            assert.notEqual(first.isError, true, `tool "${tool.name}" answered an error: ${JSON.stringify(first.content)}`);
            if (tool.outputSchema !== undefined) assert.ok(first.structuredContent !== undefined, `tool "${tool.name}" has an outputSchema but returned no structuredContent`);
            const repeatable = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
            if (repeatable && !(options.nondeterministic ?? []).includes(tool.name)) {
              const second = await connection.callTool(tool.name, sample);
              assert.deepEqual(
                { content: second.content, structuredContent: second.structuredContent },
                { content: first.content, structuredContent: first.structuredContent },
                `tool "${tool.name}" says it is ${tool.annotations?.readOnlyHint ? 'read-only' : 'idempotent'} but answered differently the second time (list it in nondeterministic if its answer carries a clock or randomness)`,
              );
            }
          } finally {
            await connection.close();
          }
        }),
    });
  }

  if (typeof probe.onServer === 'function') {
    const always = toolsets.some((t) => t.always === true);
    checks.push({
      name: always ? 'onServer runs on every server (it declares an always-on toolset)' : 'onServer runs only on servers where its toolsets are active',
      run: () =>
        withHost(async (spied, host) => {
          const inactive = await connect(host, { selection: 'only=' });
          await inactive.close();
          assert.equal(spied.calls.get('onServer') ?? 0, always ? 1 : 0, always ? 'onServer should run for an always-on toolset' : 'onServer ran on a server where none of its toolsets is active');
          const active = await connect(host, { selection: activeOnly });
          await active.close();
          assert.ok((spied.calls.get('onServer') ?? 0) >= 1, 'onServer did not run on a server where its toolset is active');
        }),
    });
  }
  return checks;
}

/**
 * Fuzzing per-tool selection (`tools=`, `exclude_tools=`, `readonly`) with
 * fast-check, counts asserted: parsing stays total in every form (query, path
 * tail, the three per-tool headers), a filter only ever narrows what the
 * toolsets serve, and the operator's read-only bound is never loosened by any
 * selection — the served tools are read-only whatever the URL or headers say.
 *
 * The seed is fixed so a failure reproduces; `FUZZ_SEED` overrides it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSelection, type SelectionSources } from '../src/serve/http/requestSelection.js';
import { buildHost, defineExtension, defineTool, LIST_SERVER_TOOLSETS, silentLogger, type McpHost } from '../src/index.js';
import { parseSelection } from '../src/selection/selection.js';

const SEED = process.env.FUZZ_SEED === undefined ? 20_261_201 : Number(process.env.FUZZ_SEED);

const TOOLS = ['read_a', 'read_b', 'write_a', 'write_b', 'plain'] as const;
const READ_ONLY = new Set(['read_a', 'read_b', LIST_SERVER_TOOLSETS]);

let host: McpHost;
beforeAll(async () => {
  const tool = (name: string, toolset: string) =>
    defineTool({ name, description: `The ${name} tool.`, toolset, ...(name === 'plain' ? {} : { annotations: { readOnlyHint: name.startsWith('read') } }), handler: () => name });
  host = await buildHost(
    [
      defineExtension({
        manifest: { name: 'fixture', version: '1.0.0' },
        toolsets: () => [{ name: 'one' }, { name: 'two', default: false }],
        tools: () => [tool('read_a', 'one'), tool('write_a', 'one'), tool('plain', 'one'), tool('read_b', 'two'), tool('write_b', 'two')],
      }),
    ],
    { logger: silentLogger, toolsetsTool: true },
  );
});
afterAll(async () => {
  await host.stop();
});

const nameArb = fc.constantFrom(...TOOLS, 'nosuch', 'one', 'two', 'Read_A', '');
const namesArb = fc.tuple(fc.array(nameArb, { maxLength: 3 }), fc.constantFrom(',', '+', '%2C', '%20')).map(([names, sep]) => names.join(sep));
const pairArb = fc.oneof(
  fc.tuple(fc.constantFrom('tools', 'exclude_tools', 'toolsets', 'only', 'without'), namesArb).map(([k, v]) => `${k}=${v}`),
  fc.constantFrom('readonly', 'readonly=true', 'readonly=false', 'readonly=0', 'readonly=OFF', 'readonly=yes', 'two', 'one=false'),
);
const hostileArb = fc.string({ unit: 'binary', maxLength: 30 });
/** Where each pair goes: 0 query, 1 tail, 2 X-MCP-Toolsets; header values for the per-tool headers beside. */
const sourcesArb = fc
  .record({
    placed: fc.array(fc.tuple(pairArb, fc.nat(2)), { maxLength: 6 }),
    tools: fc.option(fc.oneof(namesArb, hostileArb), { nil: undefined }),
    exclude: fc.option(fc.oneof(namesArb, hostileArb), { nil: undefined }),
    readonly: fc.option(fc.constantFrom('true', 'false', '0', 'yes', ''), { nil: undefined }),
    garbage: fc.option(hostileArb, { nil: undefined }),
  })
  .map(({ placed, tools, exclude, readonly, garbage }): SelectionSources => {
    const by = (form: number) => placed.filter(([, f]) => f === form).map(([p]) => p);
    const filterHeaders: Record<string, string[]> = {};
    if (tools !== undefined) filterHeaders['x-mcp-tools'] = [tools];
    if (exclude !== undefined) filterHeaders['x-mcp-exclude-tools'] = [exclude];
    if (readonly !== undefined) filterHeaders['x-mcp-readonly'] = [readonly];
    return { query: [...by(0), ...(garbage === undefined ? [] : [garbage])].join('&'), tail: by(1).join('/'), headers: by(2), filterHeaders };
  });

const RUNS = 3_000;

describe('fuzzing per-tool selection', () => {
  it(`never loosens the read-only bound and only narrows, over ${RUNS.toLocaleString('en')} generated requests`, async () => {
    let runs = 0;
    let narrowed = 0;
    let askedReadWrite = 0;
    await fc.assert(
      fc.asyncProperty(sourcesArb, async (sources) => {
        runs++;
        const selection = requestSelection(sources, { defaultSelection: parseSelection('one') });
        if (selection.readonly === false) askedReadWrite++;
        const whole = await host.build({ ...selection, tools: undefined, excludeTools: undefined, readonly: undefined });
        const served = await host.build(selection);
        const bounded = await host.build(selection, { readOnly: true });
        if (served.toolNames.length < whole.toolNames.length) narrowed++;
        // A filter only narrows: never a tool the toolsets would not serve, never a new toolset.
        expect(served.toolNames.every((n) => whole.toolNames.includes(n))).toBe(true);
        expect([...served.toolsets]).toEqual([...whole.toolsets]);
        // The operator's bound holds whatever the selection says.
        expect(bounded.toolNames.every((n) => READ_ONLY.has(n))).toBe(true);
        expect(bounded.toolNames).toContain(LIST_SERVER_TOOLSETS);
        expect(served.toolNames).toContain(LIST_SERVER_TOOLSETS);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(runs).toBe(RUNS);
    // The generator really exercised narrowing and the attempts to loosen read-only.
    expect(narrowed).toBeGreaterThan(RUNS / 4);
    expect(askedReadWrite).toBeGreaterThan(RUNS / 20);
    process.stdout.write(`tool filters: ${runs} runs; ${narrowed} narrowed; ${askedReadWrite} said readonly=false\n`);
  }, 120_000); // a count, not a speed
});

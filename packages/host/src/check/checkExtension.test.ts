import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExtension, type McpExtension } from '../contract/extension.js';
import { defineTool, type ToolSpec } from '../contract/tool.js';
import { checkExtension } from './checkExtension.js';

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Say the text back.',
  inputSchema: z.object({ text: z.string() }),
  outputSchema: z.object({ text: z.string() }),
  annotations,
  handler: ({ text }) => ({ text }),
});
const clean = defineExtension({
  manifest: { name: 'echo', version: '1.0.0' },
  toolsets: () => [{ name: 'echo', description: 'Echo things.' }],
  tools: () => [echo],
});
const codes = (check: { findings: ReadonlyArray<{ severity: string; code: string }> }) => check.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.code}`);
const withTools = (...tools: unknown[]): McpExtension => defineExtension({ manifest: { name: 'x', version: '1.0.0' }, toolsets: () => [{ name: 'x', description: 'X.' }], tools: () => tools as ToolSpec<never>[] });

describe('checkExtension', () => {
  it('passes a complete extension with no warnings, and costs each toolset in o200k_base tokens', async () => {
    const check = await checkExtension(clean);
    expect(check.ok).toBe(true);
    expect(codes(check)).toEqual([]);
    expect(check.tokenEncoding).toBe('o200k_base');
    expect(check.toolsets).toEqual([{ name: 'echo', tools: ['echo'], tokens: expect.any(Number) }]);
    expect(check.toolsets[0]!.tokens).toBeGreaterThan(20);
    expect(check.findings).toContainEqual(expect.objectContaining({ severity: 'info', code: 'toolset-tokens', subject: 'toolset "echo" of extension "echo"' }));
  });

  it('warns when annotations are missing, naming which, and when a read-only tool says it is destructive', async () => {
    const check = await checkExtension(withTools({ ...echo, annotations: { readOnlyHint: true, destructiveHint: true } }));
    expect(codes(check)).toEqual(['warning annotation-missing', 'warning annotation-contradiction']);
    expect(check.findings[0]!.message).toContain('idempotentHint, openWorldHint');
    expect(check.ok).toBe(true);
  });

  it('refuses names that break SEP-986 and warns on valid names some model APIs refuse', async () => {
    const check = await checkExtension(withTools({ ...echo, name: 'has space' }, { ...echo, name: 'dotted.name' }));
    expect(codes(check)).toEqual(['error tool-name', 'warning tool-name-portability']);
    expect(check.ok).toBe(false);
  });

  it('reports a missing description or title, and an invalid manifest', async () => {
    const check = await checkExtension(defineExtension({ manifest: { name: 'bad_name', version: '1' }, tools: () => [{ ...echo, title: undefined }, { ...echo, name: 'nodesc', description: '' }] }));
    expect(codes(check)).toEqual(['error manifest-invalid', 'warning tool-title-missing', 'error tool-invalid']);
  });

  it('reports schemas the host cannot convert or serve, and unportable ones with their path', async () => {
    const check = await checkExtension(
      withTools(
        { ...echo, name: 'scalar', inputSchema: z.string() },
        // The host writes zod's nullable portably (anyOf); a plain JSON Schema is served as written.
        { ...echo, name: 'nullable', outputSchema: { type: 'object', properties: { notes: { type: ['string', 'null'] } } } },
      ),
    );
    expect(codes(check)).toContain('error schema-unconvertible');
    const union = check.findings.find((f) => f.code === 'schema-type-union');
    expect(union).toMatchObject({ severity: 'warning', subject: 'tool "nullable" of extension "x"' });
    expect(union!.message).toMatch(/^outputSchema\.properties\.notes: /);
  });

  it('turns a throwing contribution into a finding instead of throwing', async () => {
    const check = await checkExtension(defineExtension({ manifest: { name: 'boom', version: '1.0.0' }, tools: () => { throw new Error('no database'); } }));
    expect(codes(check)).toEqual(['error contribution-failed']);
    expect(check.findings[0]!.message).toBe('tools() threw: no database');
  });

  it('warns when a toolset goes over the token budget', async () => {
    const check = await checkExtension(clean, { tokenBudget: 10 });
    expect(codes(check)).toEqual(['warning toolset-tokens']);
  });

  it('checks tool extensions: wrap must be a function, schemas must convert', async () => {
    const check = await checkExtension(defineExtension({ manifest: { name: 'ext', version: '1.0.0' }, toolExtensions: () => [['echo', { wrap: 'nope' as never, inputSchema: { type: 'object', properties: { any: {} } } }]] }));
    expect(codes(check)).toEqual(['error tool-extension-invalid', 'warning schema-untyped']);
  });

  it('takes a tool extension that derives its description and output schema (nothing to convert until the tool is known)', async () => {
    const deriving = defineExtension({
      manifest: { name: 'ext', version: '1.0.0' },
      toolExtensions: () => [['echo', { description: (original) => `${original} Also audited.`, outputSchema: (original) => original }]],
    });
    expect(codes(await checkExtension(deriving))).toEqual([]);
  });

  it('calls no handler and no lifecycle hook', async () => {
    let called = 0;
    const count = () => { called++; };
    await checkExtension(defineExtension({ ...clean, onStart: count, onServer: count, tools: () => [{ ...echo, handler: count }] }));
    expect(called).toBe(0);
  });
});

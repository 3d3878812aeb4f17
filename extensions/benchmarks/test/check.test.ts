/**
 * The package passes `reactor-mcp-server check` as built: its reactorMcp field
 * agrees with what it exports, its host range is right, and its tools have
 * valid names, descriptions and convertible schemas. Warnings are printed by
 * the command; errors fail this test (and CI). Needs `pnpm build` first.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPackage } from '@reactor/host/testing';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

describe('@reactor/ext-benchmarks passes reactor-mcp-server check', () => {
  it('has no error finding', async () => {
    const check = await checkPackage(packageRoot);
    expect(check.findings.filter((f) => f.severity === 'error')).toEqual([]);
    // Portable schemas (what the MCP Inspector warns about): none of its tools has a type union, an untyped {} or zod's integer bounds.
    expect(check.findings.filter((f) => f.code.startsWith('schema-'))).toEqual([]);
    expect(check.extensions.length).toBeGreaterThan(0);
  });
});

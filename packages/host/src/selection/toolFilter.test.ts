import { describe, expect, it } from 'vitest';
import { parseSelection } from './selection.js';
import { applyToolFilter, toolFilterKey, toolFilterOf, type FilterableTool } from './toolFilter.js';

const tool = (name: string, readOnlyHint?: boolean, aliases?: string[]): FilterableTool => ({
  name,
  spec: { ...(aliases ? { aliases } : {}), ...(readOnlyHint === undefined ? {} : { annotations: { readOnlyHint } }) },
});

const TOOLS = [tool('list_runs', true), tool('get_run', true, ['fetch_run']), tool('delete_run', false), tool('untagged'), tool('list_server_toolsets', true)];
const names = (tools: readonly FilterableTool[]) => tools.map((t) => t.name);
const filtered = (query: string, operatorReadOnly = false) => {
  const filter = toolFilterOf(parseSelection(query), operatorReadOnly);
  if (!filter) return { kept: names(TOOLS), unknown: [] as string[] };
  const { kept, unknown } = applyToolFilter(TOOLS, filter, new Set(['list_server_toolsets']));
  return { kept: names(kept), unknown: [...unknown] };
};

describe('toolFilterOf', () => {
  it('is undefined when the selection narrows nothing, so the blueprint is served whole', () => {
    expect(toolFilterOf(parseSelection('benchmarks&only=spaces'))).toBeUndefined();
    expect(toolFilterOf(parseSelection('readonly=false'))).toBeUndefined();
  });

  it('imposes the operator\'s read-only bound and reports a readonly=false it did not obey', () => {
    expect(toolFilterOf(parseSelection(''), true)).toMatchObject({ readOnly: true, readOnlyBy: 'operator', ignored: [] });
    expect(toolFilterOf(parseSelection('readonly=false'), true)).toMatchObject({ readOnly: true, readOnlyBy: 'operator', ignored: ['readonly=false'] });
    expect(toolFilterOf(parseSelection('readonly'))).toMatchObject({ readOnly: true, readOnlyBy: 'selection' });
  });
});

describe('applyToolFilter', () => {
  it('narrows to tools=, in the blueprint\'s order, keeping list_server_toolsets', () => {
    expect(filtered('tools=get_run,list_runs')).toEqual({ kept: ['list_runs', 'get_run', 'list_server_toolsets'], unknown: [] });
  });

  it('removes exclude_tools=, and exclusion wins over tools=', () => {
    expect(filtered('exclude_tools=delete_run').kept).toEqual(['list_runs', 'get_run', 'untagged', 'list_server_toolsets']);
    expect(filtered('tools=get_run&exclude_tools=get_run').kept).toEqual(['list_server_toolsets']);
  });

  it('reports names that match no tool (nor alias) as unknown, and serves around them', () => {
    expect(filtered('tools=get_run,nosuch&exclude_tools=gone')).toEqual({ kept: ['get_run', 'list_server_toolsets'], unknown: ['nosuch', 'gone'] });
  });

  it('accepts an alias for the tool it names', () => {
    expect(filtered('tools=fetch_run').kept).toEqual(['get_run', 'list_server_toolsets']);
  });

  it('serves only tools whose annotations say readOnlyHint: true; no annotations counts as not read-only', () => {
    expect(filtered('readonly').kept).toEqual(['list_runs', 'get_run', 'list_server_toolsets']);
  });

  it('never loosens the operator\'s bound, whatever the selection says', () => {
    expect(filtered('readonly=false', true).kept).toEqual(['list_runs', 'get_run', 'list_server_toolsets']);
    expect(filtered('tools=delete_run&readonly=0', true).kept).toEqual(['list_server_toolsets']);
  });
});

describe('toolFilterKey', () => {
  it('is equal for filters that keep the same tools, however they were written', () => {
    const key = (q: string, bound = false) => toolFilterKey(toolFilterOf(parseSelection(q), bound)!);
    expect(key('tools=b,a')).toBe(key('tools=a&tools=b'));
    expect(key('readonly', true)).toBe(key('', true));
    // Same tools, but reported differently: who imposed read-only, and what was not obeyed.
    expect(key('readonly')).not.toBe(key('', true));
    expect(key('readonly=false', true)).not.toBe(key('', true));
    expect(key('tools=a')).not.toBe(key('exclude_tools=a'));
    expect(key('tools=a')).not.toBe(key('tools=a&readonly'));
  });
});

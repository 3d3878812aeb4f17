/**
 * What a selection costs a model: the tokens of each `tools/list` entry a
 * blueprint serves, counted with a tokenizer the deployment brings (the core
 * ships none — `@reactor/catalog` brings `js-tiktoken`). Counted once per
 * blueprint and tokenizer, never per request: the counts live as long as the
 * blueprint they describe (a WeakMap keyed on it), so a dropped cache drops them.
 */
import type { TokenCounter } from '../contract/tokens.js';
import type { Blueprint } from './build/blueprint.js';

export type { TokenCounter } from '../contract/tokens.js';

/** The tokens a selection's `tools/list` costs (`tokens` in `describe()` and `/toolsets`). */
export interface ToolTokens {
  /** The tokenizer that counted (`TokenCounter.name`). */
  tokenizer: string;
  /** What was counted: each tool's `tools/list` entry as compact JSON. */
  unit: 'tools/list entry JSON';
  /** The whole selection: the sum over its tools. */
  total: number;
  /** Per active toolset: the sum over its tools (a tool in no toolset, like `list_server_toolsets`, counts in `total` only). */
  toolsets: Record<string, number>;
  /** Per tool. */
  tools: Record<string, number>;
}

const counted = new WeakMap<Blueprint, Map<TokenCounter, ToolTokens>>();

/** The token counts of a blueprint's tools/list, computed on first ask and kept with the blueprint. */
export function blueprintTokens(blueprint: Blueprint, counter: TokenCounter): ToolTokens {
  let byCounter = counted.get(blueprint);
  if (!byCounter) {
    byCounter = new Map();
    counted.set(blueprint, byCounter);
  }
  const hit = byCounter.get(counter);
  if (hit) return copy(hit);
  const result: ToolTokens = { tokenizer: counter.name, unit: 'tools/list entry JSON', total: 0, toolsets: {}, tools: {} };
  for (const name of blueprint.toolsets) result.toolsets[name] = 0;
  for (const tool of blueprint.tools) {
    const tokens = counter.count(JSON.stringify(tool.listEntry));
    result.tools[tool.name] = tokens;
    result.total += tokens;
    const toolset = tool.spec.toolset;
    if (toolset !== undefined && toolset in result.toolsets) result.toolsets[toolset] = (result.toolsets[toolset] ?? 0) + tokens;
  }
  byCounter.set(counter, result);
  return copy(result);
}

/** Callers get their own objects: a cached count must not be changed through an answer. */
function copy(tokens: ToolTokens): ToolTokens {
  return { ...tokens, toolsets: { ...tokens.toolsets }, tools: { ...tokens.tools } };
}

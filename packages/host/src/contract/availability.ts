/**
 * Availability: an awake extension may say it cannot serve right now — a
 * service it needs is not configured or not installed — and why, and how to
 * enable it. Its toolsets stay listed (a model learns they exist), it offers
 * no tools while unavailable (its own `tools()` decides that), and
 * `describe()` (per toolset) and `report()`/`/healthz` (per extension) carry
 * the reason and the hint, so an operator sees what to fix. Being unavailable
 * is a configuration state, not a failure: the host is not degraded by it.
 */
import { errorMessage } from '../kernel/errors.js';
import type { ExtensionAvailability, McpExtension, Unavailable } from './extension.js';
import type { Toolset } from './toolset.js';

/**
 * Asks an awake extension whether it is available. No method, or an answer
 * saying available, gives undefined; a method that throws counts as
 * unavailable with the error's message as the reason (it must never break a
 * report).
 */
export function unavailableOf(extension: McpExtension | undefined): Unavailable | undefined {
  const ask = extension?.availability;
  if (typeof ask !== 'function') return undefined;
  let answer: ExtensionAvailability;
  try {
    answer = ask.call(extension);
  } catch (error) {
    return { reason: `availability() threw (${errorMessage(error)})` };
  }
  if (typeof answer !== 'object' || answer === null || answer.available !== false) return undefined;
  const reason = typeof answer.reason === 'string' && answer.reason !== '' ? answer.reason : 'the extension says it is unavailable';
  return typeof answer.hint === 'string' && answer.hint !== '' ? { reason, hint: answer.hint } : { reason };
}

/**
 * The toolsets declared by unavailable extensions, each with its extension's
 * reason (the first unavailable declarer wins, in registration order).
 */
export function unavailableToolsets(
  records: Iterable<{ readonly name: string; readonly instance: McpExtension | undefined; readonly declaredToolsets: readonly Toolset[] }>,
): Map<string, Unavailable & { readonly extension: string }> {
  const found = new Map<string, Unavailable & { readonly extension: string }>();
  for (const record of records) {
    const unavailable = unavailableOf(record.instance);
    if (unavailable === undefined) continue;
    for (const toolset of record.declaredToolsets) if (!found.has(toolset.name)) found.set(toolset.name, { ...unavailable, extension: record.name });
  }
  return found;
}

/** `report()`'s `unavailable` field of one extension: spread into its status (nothing when available). */
export function unavailableField(extension: McpExtension | undefined): { unavailable?: Unavailable } {
  const unavailable = unavailableOf(extension);
  return unavailable === undefined ? {} : { unavailable };
}

/** `describe()`'s toolsets with `unavailable` filled in for those an unavailable awake extension declares. */
export function withUnavailable<T extends { readonly name: string }>(
  toolsets: T[],
  records: Iterable<{ readonly name: string; readonly instance: McpExtension | undefined; readonly declaredToolsets: readonly Toolset[] }>,
): Array<T & { unavailable?: Unavailable & { extension: string } }> {
  const unavailable = unavailableToolsets(records);
  if (unavailable.size === 0) return toolsets;
  return toolsets.map((t) => {
    const why = unavailable.get(t.name);
    return why === undefined ? t : { ...t, unavailable: { ...why } };
  });
}

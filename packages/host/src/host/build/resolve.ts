/**
 * Resolution: from the active extensions' contributions to the tools a build
 * serves — tool extensions applied in order (fail closed), toolsets filled in,
 * collisions settled (first registered wins, every party named).
 */
import { ErrorCodes } from '../../kernel/errors.js';
import type { ProblemLog } from '../../kernel/problems.js';
import type { ExtensionRecord } from '../registry/registry.js';
import type { HostStats } from '../../kernel/stats.js';
import { applicationOrder, applyToolExtensions, type ExtensionOfTool } from '../../contract/toolExtension.js';
import type { ToolSpec } from '../../contract/tool.js';
import type { Logger } from '../../kernel/logger.js';

/** One extension's offer of one tool, extensions applied. */
export interface Offering {
  readonly extension: string;
  readonly registrationIndex: number;
  readonly spec: ToolSpec<Record<string, unknown>> & { readonly toolset: string };
  /** Extending extensions, in application order (innermost first). */
  readonly extendedBy: readonly string[];
  /** Extensions with `when: 'active'`, applied per build by {@link offeringFor}. */
  readonly conditional?: ConditionalExtensions;
}

/** What a build needs to apply a tool's `when: 'active'` extensions. */
interface ConditionalExtensions {
  /** The tool as offered, before any extension. */
  readonly tool: Offering['spec'];
  /** Its `'always'` extensions (already applied in the offering's `spec`). */
  readonly always: readonly ExtensionOfTool[];
  /** Its `'active'` extensions, each with the extending extension's toolsets. */
  readonly whenActive: readonly ExtensionOfTool[];
  /** The offering for each subset of `whenActive` that applied, made once (null: that combination failed). */
  readonly variants: Map<string, Offering | null>;
}

/** A name offered by more than one extension in one build. */
export interface Conflict {
  readonly tool: string;
  /** The extension whose tool is served. */
  readonly served: string;
  /** The extensions whose tools of that name are left out. */
  readonly ignored: readonly string[];
}

/**
 * Applies every tool extension of the given records to every tool they offer.
 * A tool whose extension fails is left out (and reported); tool extensions
 * whose target nobody offers are kept for `describe()`.
 */
export function resolveOfferings(records: readonly ExtensionRecord[], problems: ProblemLog, logger: Logger, stats: HostStats): Offering[] {
  const extensionsOf = new Map<string, ExtensionOfTool[]>();
  for (const record of records) {
    for (const [target, toolExtension] of record.contributions?.toolExtensions ?? []) {
      let list = extensionsOf.get(target);
      if (!list) extensionsOf.set(target, (list = []));
      const toolsets = (record.contributions?.toolsets ?? record.declaredToolsets).map((t) => t.name);
      list.push({ extension: record.name, registrationIndex: record.index, toolExtension, toolsets });
    }
  }
  const offerings: Offering[] = [];
  for (const record of records) {
    for (const tool of record.contributions?.tools ?? []) {
      stats.resolutions++;
      const all = extensionsOf.get(tool.name) ?? [];
      const extensions = all.filter((e) => e.toolExtension.when !== 'active');
      const whenActive = all.filter((e) => e.toolExtension.when === 'active');
      try {
        const spec = extensions.length === 0 ? tool : applyToolExtensions(tool, extensions);
        offerings.push({
          extension: record.name,
          registrationIndex: record.index,
          spec,
          extendedBy: extendedBy(extensions),
          ...(whenActive.length > 0 ? { conditional: { tool, always: extensions, whenActive, variants: new Map() } } : {}),
        });
      } catch (error) {
        const extension = (error as { extension?: string }).extension ?? record.name;
        problems.reportError(logger, error, ErrorCodes.TOOL_EXTENSION_FAILED, 'build', { extension, subject: tool.name }, { fields: { tool: tool.name, offeredBy: record.name } });
      }
    }
  }
  return offerings;
}

/** One entry per extending extension, in application order, even when it extends the tool twice. */
function extendedBy(extensions: readonly ExtensionOfTool[]): string[] {
  return [...new Set(applicationOrder(extensions).map((e) => e.extension))];
}

/**
 * The offering as a build with these active toolsets serves it: with the
 * `when: 'active'` extensions whose extending extension has an active toolset
 * applied too (in the one application order, from the tool as offered), made
 * once per combination. Undefined when that combination fails (reported; the
 * tool is left out of that build, fail closed).
 */
export function offeringFor(offering: Offering, active: ReadonlySet<string>, problems: ProblemLog, logger: Logger): Offering | undefined {
  const conditional = offering.conditional;
  if (!conditional) return offering;
  const applicable = conditional.whenActive.filter((e) => (e.toolsets ?? []).some((t) => active.has(t)));
  if (applicable.length === 0) return offering;
  const key = applicable.map((e) => `${e.registrationIndex}`).join(',');
  let variant = conditional.variants.get(key);
  if (variant === undefined) {
    const extensions = [...conditional.always, ...applicable];
    try {
      variant = { ...offering, spec: applyToolExtensions(conditional.tool, extensions), extendedBy: extendedBy(extensions) };
    } catch (error) {
      const extension = (error as { extension?: string }).extension ?? offering.extension;
      problems.reportError(logger, error, ErrorCodes.TOOL_EXTENSION_FAILED, 'build', { extension, subject: offering.spec.name }, { fields: { tool: offering.spec.name, offeredBy: offering.extension } });
      variant = null;
    }
    conditional.variants.set(key, variant);
  }
  return variant ?? undefined;
}

/** The offerings served for a set of active toolsets, and the collisions among them. */
export function selectOfferings(offerings: readonly Offering[], active: ReadonlySet<string> | undefined): { served: Offering[]; conflicts: Conflict[] } {
  const winners = new Map<string, Offering>();
  const losers = new Map<string, string[]>();
  for (const offering of offerings) {
    if (active && !active.has(offering.spec.toolset)) continue;
    const first = winners.get(offering.spec.name);
    if (!first) winners.set(offering.spec.name, offering);
    else {
      let list = losers.get(offering.spec.name);
      if (!list) losers.set(offering.spec.name, (list = []));
      list.push(offering.extension);
    }
  }
  const conflicts = [...losers].map(([tool, ignored]) => ({ tool, served: winners.get(tool)?.extension ?? '', ignored }));
  return { served: [...winners.values()], conflicts };
}

/** Tool extensions whose target no awake extension offers (they apply nowhere, yet). */
export function orphanToolExtensions(records: readonly ExtensionRecord[]): Array<{ tool: string; extension: string }> {
  const offered = new Set(records.flatMap((r) => (r.contributions?.tools ?? []).map((t) => t.name)));
  return records.flatMap((r) => (r.contributions?.toolExtensions ?? []).filter(([target]) => !offered.has(target)).map(([tool]) => ({ tool, extension: r.name })));
}

/**
 * Dependency order: registered extensions sorted so each comes after the ones
 * it depends on (stable: ties keep registration order). A cycle fails every
 * member; a missing or failed dependency fails its dependents, transitively.
 */
import { ErrorCodes, ReactorError, type ErrorCode } from '../../kernel/errors.js';
import type { ExtensionRecord } from './extensionRecord.js';

/** Marks a record failed with an error, code and phase (the registry's `fail`). */
export type FailRecord = (record: ExtensionRecord, error: unknown, code: ErrorCode, phase: 'startup') => void;

/** Reorders `records` in place (and renumbers `index`), failing what cannot be placed. */
export function orderByDependencies(records: ExtensionRecord[], byName: ReadonlyMap<string, ExtensionRecord>, fail: FailRecord): void {
  const ordered: ExtensionRecord[] = [];
  const placed = new Set<ExtensionRecord>();
  const visiting: ExtensionRecord[] = [];
  const visit = (record: ExtensionRecord): void => {
    if (placed.has(record)) return;
    const at = visiting.indexOf(record);
    if (at >= 0) {
      const chain = [...visiting.slice(at), record].map((r) => r.name).join(' → ');
      for (const member of visiting.slice(at)) {
        if (member.state !== 'failed') {
          fail(member, new ReactorError(ErrorCodes.DEPENDENCY_CYCLE, {
            subject: `extension "${member.name}"`,
            problem: `its dependencies form a cycle: ${chain}`,
            hint: 'remove one of the dependencies in the cycle',
            extension: member.name,
          }), ErrorCodes.DEPENDENCY_CYCLE, 'startup');
        }
      }
      return;
    }
    visiting.push(record);
    for (const dep of record.manifest.dependencies ?? []) {
      const target = byName.get(dep);
      if (target) visit(target);
    }
    visiting.pop();
    placed.add(record);
    ordered.push(record);
  };
  for (const record of records) visit(record);
  ordered.forEach((r, i) => (r.index = i));
  records.splice(0, records.length, ...ordered);
  // Missing or failed dependencies fail their dependents, transitively (records are in dependency order now).
  for (const record of records) {
    if (record.state === 'failed') continue;
    for (const dep of record.manifest.dependencies ?? []) {
      const target = byName.get(dep);
      if (!target || target.state === 'failed') {
        fail(record, new ReactorError(ErrorCodes.DEPENDENCY_MISSING, {
          subject: `extension "${record.name}"`,
          problem: target ? `depends on extension "${dep}", which failed` : `depends on extension "${dep}", which is not registered`,
          hint: target ? `fix "${dep}" first (see its own problem)` : `install and register "${dep}", or remove it from manifest.dependencies`,
          extension: record.name,
        }), ErrorCodes.DEPENDENCY_MISSING, 'startup');
        break;
      }
    }
  }
}

/** The rehearsal's report as text for a terminal: what was published, how big, what a client saw, what was refused. */
import { kib } from './packageChecks.js';
import type { ReleaseReport } from './rehearsal.js';

/** Renders `report` and its `problems` (from `releaseProblems`). */
export function formatReport(report: ReleaseReport, problems: readonly string[]): string {
  const lines: string[] = [`Release rehearsal against ${report.registry}`, '', 'Published (changeset version + changeset publish):'];
  for (const t of report.first.tarballs) {
    lines.push(`  ${t.problems.length === 0 ? '✓' : '✗'} ${t.name}@${t.version}  ${kib(t.bytes)} (budget ${kib(t.budget)})  ${t.path}`);
  }
  lines.push(`  git tags: ${report.first.tags.join(', ')}`);
  const probe = report.install.probe;
  lines.push(
    '',
    `npm install into an empty project: ${Object.entries(report.install.installed).map(([n, v]) => `${n}@${v}`).join(', ')}`,
    `  reactor-mcp-server --version: ${report.install.binVersion}; loaded ${probe.summary.loaded.join(', ') || 'nothing'}; held ${probe.summary.held.join(', ') || 'nothing'}`,
    `  a client listed ${probe.defaultTools.length} tools at ${probe.url}, ${probe.allTools.length} with ${probe.toolsets.join(', ')} on`,
    '',
    `Minor host release ${report.minor.hostVersion} (other packages: ${Object.entries(report.minor.versions).filter(([n]) => n !== '@reactor/host').map(([n, v]) => `${n}@${v}`).join(', ')}):`,
    ...report.minor.peerRanges.map((c) => `  ${c.accepts ? '✓' : '✗'} ${c.name}@${c.version} peer ${c.range} accepts ${c.hostVersion}: ${c.accepts}`),
    `  npm install: ${report.minor.outcome.ok ? 'ok' : `failed (${report.minor.outcome.errorCode})`}; server loaded ${report.minor.probe.summary.loaded.join(', ') || 'nothing'}, held ${report.minor.probe.summary.held.join(', ') || 'nothing'}`,
    '',
    `Incompatible host major ${report.major.hostVersion} (dist-tags ${JSON.stringify(report.major.distTags)}):`,
    ...report.major.peerRanges.map((c) => `  ${c.accepts ? '✗' : '✓'} ${c.name}@${c.version} peer ${c.range} accepts ${c.hostVersion}: ${c.accepts}`),
    `  fresh npm install with the extensions: ${report.major.fresh.ok ? 'accepted' : `refused (${report.major.fresh.errorCode})`}`,
    `  upgrade in the existing project: ${report.major.upgrade.ok ? 'installed' : 'failed'}${report.major.upgrade.output.includes('ERESOLVE overriding peer dependency') ? ', npm only warned "ERESOLVE overriding peer dependency"' : ''}`,
    ...report.major.probe.summary.skipped.map((s) => `  refused at load: ${s.extension}: ${s.why.join('; ')}`),
    '',
  );
  if (problems.length === 0) lines.push('All checks passed.');
  else lines.push(`${problems.length} problem(s):`, ...problems.map((p) => `  - ${p}`));
  return lines.join('\n');
}

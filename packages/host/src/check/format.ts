/**
 * The human form of a package check: findings grouped by severity, errors
 * first, each with its subject and hint, then each toolset's token cost and a
 * one-line verdict. `--json` prints the {@link PackageCheck} itself instead.
 */
import type { PackageCheck } from './checkPackage.js';
import { countFindings, type CheckFinding } from './findings.js';

const ORDER: Record<CheckFinding['severity'], number> = { error: 0, warning: 1, info: 2 };
const LABEL: Record<CheckFinding['severity'], string> = { error: 'error', warning: 'warn ', info: 'info ' };

/** Renders a check for a terminal (no colours: it is also read in CI logs). */
export function formatPackageCheck(check: PackageCheck, strict = false): string {
  const lines = [`Checking ${check.package} (${check.dir})`, ''];
  const findings = check.findings.filter((f) => f.code !== 'toolset-tokens' || f.severity !== 'info');
  for (const f of [...findings].sort((a, b) => ORDER[a.severity] - ORDER[b.severity])) {
    lines.push(`${LABEL[f.severity]} [${f.code}] ${f.subject}: ${f.message}`);
    if (f.hint !== undefined && f.severity !== 'info') lines.push(`        hint: ${f.hint}`);
  }
  if (findings.length > 0) lines.push('');
  for (const extension of check.extensions) {
    for (const toolset of extension.toolsets) {
      lines.push(`toolset "${toolset.name}" (extension "${extension.extension}"): ${toolset.tools.length} tool(s), ${toolset.tokens} tokens (${extension.tokenEncoding})`);
    }
  }
  const counts = countFindings(check.findings);
  const failed = counts.error > 0 || (strict && counts.warning > 0);
  lines.push(`${failed ? 'FAILED' : 'OK'}: ${counts.error} error(s), ${counts.warning} warning(s)${strict ? ' (--strict: warnings fail)' : ''}`);
  return `${lines.join('\n')}\n`;
}

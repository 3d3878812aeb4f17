/**
 * The release path, proven against a real registry: the same rehearsal
 * `pnpm release:local` runs (src/rehearsal.ts) — Verdaccio on loopback,
 * `changeset version` and `changeset publish` from a scratch copy, a plain npm
 * project installing and serving what was published, a minor host release the
 * extensions must accept, an incompatible major they must be refused against.
 *
 * Needs the packages built (`pnpm test` builds first) and the npm registry
 * reachable (Verdaccio is installed from apps/release/verdaccio's lockfile on
 * first use, and proxies the packages' own dependencies). Takes a few minutes.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_SERVER_TOOLSETS } from '@reactor/host';
import { SPACES_TOOL_NAMES } from '@reactor/ext-spaces';
import { BENCHMARK_TOOL_NAMES } from '@reactor/ext-benchmarks';
import { formatReport, HOST_PACKAGE, INCOMPATIBLE_CODE, kib, publicPackages, rehearseRelease, releaseProblems, type PublicPackage, type ReleaseReport } from '../src/index.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const sorted = (names: Iterable<string>) => [...names].sort();
const SPACES_TOOLS = sorted([...SPACES_TOOL_NAMES, LIST_SERVER_TOOLSETS]);
const ALL_TOOLS = sorted([...SPACES_TOOL_NAMES, ...BENCHMARK_TOOL_NAMES, LIST_SERVER_TOOLSETS]);
const EXTENSIONS = ['@reactor/ext-benchmarks', '@reactor/ext-spaces'];

let workDir: string;
let packages: PublicPackage[];
let report: ReleaseReport;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'reactor-release-test-'));
  packages = await publicPackages(repoRoot);
  report = await rehearseRelease({ repoRoot, workDir });
  // The figures the issue asks for, in the test output: sizes, versions, peer ranges.
  process.stdout.write(`${formatReport(report, releaseProblems(report))}\n`);
}, 600_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 120_000);

const v = (name: string) => report.first.versions[name]!;

describe('changeset version + changeset publish to a loopback Verdaccio', () => {
  it('publishes every public workspace package (pnpm lists them; none hard-coded) at a bumped version, and tags it', () => {
    expect(packages.map((p) => p.name)).toEqual(expect.arrayContaining([HOST_PACKAGE, ...EXTENSIONS]));
    expect(report.first.tarballs.map((t) => t.name)).toEqual(packages.map((p) => p.name));
    for (const pkg of packages) {
      expect(semver.gt(v(pkg.name), pkg.version), `${pkg.name}: ${pkg.version} → ${v(pkg.name)}`).toBe(true);
      expect(report.first.tags).toContain(`${pkg.name}@${v(pkg.name)}`);
    }
  });

  it('each tarball has what a registry user expects (README, LICENSE, CHANGELOG, typed exports, no tests, whole source maps, metadata) within its size budget', () => {
    for (const t of report.first.tarballs) {
      expect(t.problems, `${t.name}@${t.version} (${kib(t.bytes)} of ${kib(t.budget)})`).toEqual([]);
      expect(t.bytes).toBeLessThanOrEqual(t.budget);
    }
  });
});

describe('a stranger installs from the registry with plain npm and serves', () => {
  it('npm install --registry gets the released versions, and npx reactor-mcp-server --version names the host', () => {
    expect(report.install.outcome.ok).toBe(true);
    expect(report.install.installed).toEqual({ [HOST_PACKAGE]: v(HOST_PACKAGE), '@reactor/ext-spaces': v('@reactor/ext-spaces'), '@reactor/ext-benchmarks': v('@reactor/ext-benchmarks') });
    expect(report.install.binVersion).toBe(v(HOST_PACKAGE));
  });

  it('reactor-mcp-server discovers both extensions (benchmarks held) and a real client lists their tools', () => {
    const { probe } = report.install;
    expect(probe.summary).toEqual({ loaded: [`spaces@${v('@reactor/ext-spaces')}`], held: [`benchmarks@${v('@reactor/ext-benchmarks')} (onToolset:benchmarks)`], skipped: [] });
    expect(probe.toolsets).toEqual(['benchmarks', 'spaces']);
    expect(probe.defaultTools).toEqual(SPACES_TOOLS);
    expect(probe.allTools).toEqual(ALL_TOOLS);
    expect(probe.exit).toEqual({ code: 0, signal: null });
  });
});

describe('a minor host release, published alone', () => {
  it('bumps only the host (onlyUpdatePeerDependentsWhenOutOfRange) and becomes latest', () => {
    expect(report.minor.hostVersion).toBe(semver.inc(v(HOST_PACKAGE), 'minor'));
    for (const name of EXTENSIONS) expect(report.minor.versions[name], name).toBe(v(name));
    expect(report.minor.latest[HOST_PACKAGE]).toBe(report.minor.hostVersion);
  });

  it("is accepted by the published extensions' peer ranges, by npm, and by discovery", () => {
    // Every package with a host peer range is checked (@reactor/adopt too); the extensions are among them.
    expect(report.minor.peerRanges.filter((c) => EXTENSIONS.includes(c.name)).map((c) => [c.name, c.accepts])).toEqual(EXTENSIONS.map((name) => [name, true]));
    expect(report.minor.peerRanges.filter((c) => !c.accepts)).toEqual([]);
    expect(report.minor.outcome.ok).toBe(true);
    expect(report.minor.outcome.output).not.toContain('ERESOLVE');
    expect(report.minor.installedHost).toBe(report.minor.hostVersion);
    expect(report.minor.probe.summary.skipped).toEqual([]);
    expect(report.minor.probe.allTools).toEqual(ALL_TOOLS);
  });
});

describe('an incompatible host major', () => {
  it('is published under next, outside every published peer range', () => {
    expect(report.major.hostVersion).toBe(semver.inc(report.minor.hostVersion, 'major'));
    expect(report.major.distTags).toMatchObject({ latest: report.minor.hostVersion, next: report.major.hostVersion });
    expect(report.major.peerRanges.filter((c) => EXTENSIONS.includes(c.name)).map((c) => [c.name, c.accepts])).toEqual(EXTENSIONS.map((name) => [name, false]));
    expect(report.major.peerRanges.filter((c) => c.accepts)).toEqual([]);
  });

  it('npm refuses it in a fresh project with the extensions (ERESOLVE), but only warns when an existing project upgrades to it', () => {
    expect(report.major.fresh).toMatchObject({ ok: false, errorCode: 'ERESOLVE' });
    expect(report.major.upgrade.ok).toBe(true);
    expect(report.major.upgrade.output).toContain('ERESOLVE overriding peer dependency');
    expect(report.major.installedHost).toBe(report.major.hostVersion);
  });

  it(`so the host refuses each extension at load with ${INCOMPATIBLE_CODE}, naming the range and the host it got`, () => {
    const { summary } = report.major.probe;
    expect(summary.loaded).toEqual([]);
    expect(summary.held).toEqual([]);
    expect(summary.skipped.map((s) => s.extension)).toEqual([`benchmarks@${v('@reactor/ext-benchmarks')}`, `spaces@${v('@reactor/ext-spaces')}`]);
    for (const skipped of summary.skipped) {
      expect(skipped.why).toEqual([expect.stringContaining(`[${INCOMPATIBLE_CODE}]`)]);
      expect(skipped.why[0]).toContain(`received ${HOST_PACKAGE}@${report.major.hostVersion}`);
    }
    expect(report.major.probe.allTools).toEqual([LIST_SERVER_TOOLSETS]);
  });
});

it('releaseProblems (what pnpm release:local fails on) finds nothing', () => {
  expect(releaseProblems(report)).toEqual([]);
});

/**
 * The release, rehearsed end to end against a real registry on loopback —
 * the one sequence both `pnpm release:local` and the test run:
 *
 * 1. Verdaccio with throwaway storage and one htpasswd user;
 * 2. a scratch copy of the repository; a changeset bumping every public
 *    package (so each gets a version and a CHANGELOG.md), `changeset version`,
 *    `changeset publish`;
 * 3. every published tarball checked for what registry users expect;
 * 4. an empty npm project installs host and extensions with `--registry` and
 *    serves them with `reactor-mcp-server` to a real MCP client;
 * 5. a minor host release, alone: the extensions' published peer ranges must
 *    accept it, npm must install it, and the server must still load them;
 * 6. an incompatible host major, published under `next`: a fresh npm project
 *    asking for it with the extensions must be refused (ERESOLVE); an
 *    existing project upgrading to it only gets npm's warning ("ERESOLVE
 *    overriding peer dependency") — so the host itself must refuse the
 *    extensions at load, with REACTOR_EXTENSION_INCOMPATIBLE.
 *
 * {@link rehearseRelease} records what it saw; {@link releaseProblems} judges.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { tarballBudget } from './budgets.js';
import { changesetPublish, changesetVersion, publishTagged, writeChangeset, type Bump } from './changesets.js';
import { binVersion, createProject, installedVersion, npmInstall, serveAndProbe, type InstallOutcome, type ServeProbe } from './consumer.js';
import { packageProblems } from './packageChecks.js';
import { downloadTarball, packument } from './registryClient.js';
import { commitAll, gitTags, requireDist, scratchCopy } from './scratch.js';
import { startRegistry } from './verdaccio.js';
import { publicPackages, type PublicPackage } from './workspace.js';

/** The host package: the one every extension names as a peer. */
export const HOST_PACKAGE = '@reactor/host';
/** What the stranger installs: the host and the two first-party extensions. */
export const CONSUMER_PACKAGES: readonly string[] = [HOST_PACKAGE, '@reactor/ext-spaces', '@reactor/ext-benchmarks'];
/** The code the host refuses an extension with when its peer range excludes this host. */
export const INCOMPATIBLE_CODE = 'REACTOR_EXTENSION_INCOMPATIBLE';

/** One published tarball and what was found wrong with it. */
export interface PublishedTarball {
  readonly name: string;
  readonly path: string;
  readonly version: string;
  readonly bytes: number;
  readonly budget: number;
  readonly problems: readonly string[];
}

/** One published extension's peer range for the host, against a host version. */
export interface PeerRangeCheck {
  readonly name: string;
  readonly version: string;
  readonly range: string;
  readonly hostVersion: string;
  readonly accepts: boolean;
}

/** Everything the rehearsal saw. */
export interface ReleaseReport {
  readonly registry: string;
  /** The public packages, as the repository declares them before the release. */
  readonly packages: ReadonlyArray<Pick<PublicPackage, 'name' | 'path' | 'version'>>;
  readonly first: { readonly versions: Readonly<Record<string, string>>; readonly tarballs: readonly PublishedTarball[]; readonly tags: readonly string[] };
  readonly install: { readonly outcome: InstallOutcome; readonly installed: Readonly<Record<string, string>>; readonly binVersion: string; readonly probe: ServeProbe };
  readonly minor: {
    readonly hostVersion: string;
    /** Every public package's version after `changeset version` of the host-only minor changeset. */
    readonly versions: Readonly<Record<string, string>>;
    /** `latest` on the registry after `changeset publish`. */
    readonly latest: Readonly<Record<string, string>>;
    readonly peerRanges: readonly PeerRangeCheck[];
    readonly outcome: InstallOutcome;
    readonly installedHost: string;
    readonly probe: ServeProbe;
  };
  readonly major: {
    readonly hostVersion: string;
    readonly distTags: Readonly<Record<string, string>>;
    readonly peerRanges: readonly PeerRangeCheck[];
    /** `npm install` of the major host with the extensions, in a fresh project. */
    readonly fresh: InstallOutcome;
    /** `npm install @reactor/host@<major>` in the project that has the extensions: npm only warns. */
    readonly upgrade: InstallOutcome;
    readonly installedHost: string;
    readonly probe: ServeProbe;
  };
}

/** Where the rehearsal works, and where it says what it is doing. */
export interface RehearsalOptions {
  readonly repoRoot: string;
  /** An empty folder the rehearsal owns (registry storage, scratch copy, npm project); the caller removes it. */
  readonly workDir: string;
  readonly log?: (line: string) => void;
}

const versionsOf = (packages: readonly PublicPackage[]) => Object.fromEntries(packages.map((p) => [p.name, p.version]));

/** Runs the whole rehearsal; stops the registry (and every server it started) before resolving or rejecting. */
export async function rehearseRelease(options: RehearsalOptions): Promise<ReleaseReport> {
  const log = options.log ?? (() => undefined);
  const packages = await publicPackages(options.repoRoot);
  requireDist(packages);
  const dirs = { registry: join(options.workDir, 'registry'), repo: join(options.workDir, 'repo'), app: join(options.workDir, 'app'), fresh: join(options.workDir, 'fresh-app'), data: join(options.workDir, 'benchmarks-data') };
  for (const dir of [dirs.registry, dirs.repo]) mkdirSync(dir, { recursive: true });

  log('starting Verdaccio (installing it from apps/release/verdaccio/package-lock.json on first use)');
  const registry = await startRegistry(dirs.registry);
  try {
    const env = registry.publishEnv();
    const serverEnv = { REACTOR_BENCHMARKS_DATA: dirs.data };
    log(`registry at ${registry.url}; copying the repository to ${dirs.repo}`);
    const repo = await scratchCopy(options.repoRoot, dirs.repo, packages);

    // 2. The next release: every public package gets at least a patch.
    const bumpAll: Record<string, Bump> = Object.fromEntries(packages.map((p) => [p.name, 'patch'] as const));
    writeChangeset(repo, 'release-rehearsal', bumpAll, 'Release rehearsal: published to a loopback registry by `pnpm release:local`.');
    log(`changeset version, then changeset publish of ${packages.map((p) => p.name).join(', ')}`);
    const released = await versionAndPublish(repo, env);
    const firstVersions = versionsOf(released);
    const repositoryUrl = rootRepositoryUrl(options.repoRoot);
    const tarballs: PublishedTarball[] = [];
    for (const pkg of released) {
      const tarball = await downloadTarball(registry.url, pkg.name, pkg.version);
      const budget = tarballBudget(pkg.name);
      tarballs.push({ name: pkg.name, path: pkg.path, version: pkg.version, bytes: tarball.bytes, budget, problems: packageProblems({ path: pkg.path, repositoryUrl, bytes: tarball.bytes, budget, files: tarball.files }) });
    }
    const tags = await gitTags(repo);

    // 4. A stranger installs and serves.
    log(`npm install ${CONSUMER_PACKAGES.join(' ')} --registry ${registry.url} in an empty project`);
    await createProject(dirs.app);
    const outcome = await npmInstall(dirs.app, registry.url, CONSUMER_PACKAGES);
    if (!outcome.ok) throw new Error(`npm install from the loopback registry failed:\n${outcome.output}`);
    const installed = Object.fromEntries(CONSUMER_PACKAGES.map((name) => [name, installedVersion(dirs.app, name)]));
    const install = { outcome, installed, binVersion: await binVersion(dirs.app), probe: await serveAndProbe(dirs.app, serverEnv) };

    // 5. A minor host release, alone.
    writeChangeset(repo, 'host-minor', { [HOST_PACKAGE]: 'minor' }, 'Rehearsal: a minor host release, which published extensions must accept without a release of their own.');
    log('a minor host release: changeset version, changeset publish, npm install of the new host');
    const afterMinor = await versionAndPublish(repo, env);
    const minorHost = hostOf(afterMinor).version;
    const latest = Object.fromEntries(await Promise.all(afterMinor.map(async (p) => [p.name, (await packument(registry.url, p.name))['dist-tags']['latest'] ?? ''] as const)));
    const minorRanges = await peerRanges(registry.url, afterMinor, latest, minorHost);
    const minorOutcome = await npmInstall(dirs.app, registry.url, [`${HOST_PACKAGE}@${minorHost}`]);
    const minor = { hostVersion: minorHost, versions: versionsOf(afterMinor), latest, peerRanges: minorRanges, outcome: minorOutcome, installedHost: installedVersion(dirs.app, HOST_PACKAGE), probe: await serveAndProbe(dirs.app, serverEnv) };

    // 6. An incompatible major of the host, published alone under `next`.
    writeChangeset(repo, 'host-major', { [HOST_PACKAGE]: 'major' }, 'Rehearsal: a breaking host release that the published extensions do not support.');
    log('an incompatible host major under the `next` tag: a fresh npm install must be refused; upgraded into the project, the host must refuse the extensions');
    await changesetVersion(repo, env);
    const host = hostOf(await publicPackages(repo));
    await publishTagged(host.dir, 'next', env);
    const distTags = (await packument(registry.url, HOST_PACKAGE))['dist-tags'];
    const majorRanges = await peerRanges(registry.url, afterMinor, latest, host.version);
    await createProject(dirs.fresh);
    const fresh = await npmInstall(dirs.fresh, registry.url, CONSUMER_PACKAGES.map((name) => (name === HOST_PACKAGE ? `${name}@${host.version}` : name)));
    const upgrade = await npmInstall(dirs.app, registry.url, [`${HOST_PACKAGE}@${host.version}`]);
    const major = { hostVersion: host.version, distTags, peerRanges: majorRanges, fresh, upgrade, installedHost: installedVersion(dirs.app, HOST_PACKAGE), probe: await serveAndProbe(dirs.app, serverEnv) };

    return {
      registry: registry.url,
      packages: packages.map(({ name, path, version }) => ({ name, path, version })),
      first: { versions: firstVersions, tarballs, tags },
      install,
      minor,
      major,
    };
  } finally {
    await registry.stop();
  }
}

/** `repository.url` of the root package.json: the one every published package must name. */
function rootRepositoryUrl(repoRoot: string): string {
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { repository?: { url?: unknown } };
  return typeof root.repository?.url === 'string' ? root.repository.url : '(the root package.json has no repository.url)';
}

async function versionAndPublish(repo: string, env: NodeJS.ProcessEnv): Promise<PublicPackage[]> {
  await changesetVersion(repo, env);
  await commitAll(repo, 'Version Packages');
  await changesetPublish(repo, env);
  return publicPackages(repo);
}

function hostOf(packages: readonly PublicPackage[]): PublicPackage {
  const host = packages.find((p) => p.name === HOST_PACKAGE);
  if (host === undefined) throw new Error(`${HOST_PACKAGE} is not among the public workspace packages (${packages.map((p) => p.name).join(', ')})`);
  return host;
}

/** For every published package that names the host as a peer: its range at its `latest` version, against `hostVersion`. */
async function peerRanges(registry: string, packages: readonly PublicPackage[], latest: Readonly<Record<string, string>>, hostVersion: string): Promise<PeerRangeCheck[]> {
  const checks: PeerRangeCheck[] = [];
  for (const pkg of packages) {
    const version = latest[pkg.name];
    if (version === undefined || pkg.name === HOST_PACKAGE) continue;
    const range = (await packument(registry, pkg.name)).versions[version]?.peerDependencies?.[HOST_PACKAGE];
    if (range !== undefined) checks.push({ name: pkg.name, version, range, hostVersion, accepts: semver.satisfies(hostVersion, range) });
  }
  return checks;
}

const extensionNames = (summary: ServeProbe['summary']) => [...summary.loaded, ...summary.held.map((h) => h.split(' ')[0]!)].map((id) => id.slice(0, id.lastIndexOf('@')));

/** What went wrong, one sentence each; empty when the release path works end to end. */
export function releaseProblems(report: ReleaseReport): string[] {
  const problems: string[] = [];
  for (const t of report.first.tarballs) problems.push(...t.problems.map((p) => `${t.name}@${t.version}: ${p}`));
  for (const pkg of report.packages) {
    if (!report.first.tarballs.some((t) => t.name === pkg.name)) problems.push(`${pkg.name} was not published`);
  }
  const { install, minor, major } = report;
  const served = (label: string, probe: ServeProbe) => {
    if (probe.summary.skipped.length > 0) problems.push(`${label}: the server skipped ${probe.summary.skipped.map((s) => `${s.extension} (${s.why.join('; ')})`).join(', ')}`);
    if (extensionNames(probe.summary).length === 0) problems.push(`${label}: the server loaded no extension`);
    if (probe.allTools.length === 0 || !probe.defaultTools.every((t) => probe.allTools.includes(t))) problems.push(`${label}: a client listed ${probe.allTools.length} tool(s) with every toolset on, ${probe.defaultTools.length} by default`);
    if (probe.exit.code !== 0) problems.push(`${label}: the server exited with code ${probe.exit.code} (signal ${probe.exit.signal}) on SIGTERM`);
  };
  served('first install', install.probe);
  if (install.binVersion !== install.installed[HOST_PACKAGE]) problems.push(`npx reactor-mcp-server --version said ${install.binVersion}; ${HOST_PACKAGE}@${install.installed[HOST_PACKAGE]} is installed`);

  for (const pkg of report.packages.filter((p) => p.name !== HOST_PACKAGE)) {
    if (minor.versions[pkg.name] !== report.first.versions[pkg.name]) problems.push(`a host-only minor changeset moved ${pkg.name} from ${report.first.versions[pkg.name]} to ${minor.versions[pkg.name]}`);
  }
  if (minor.latest[HOST_PACKAGE] !== minor.hostVersion) problems.push(`latest of ${HOST_PACKAGE} is ${minor.latest[HOST_PACKAGE]}, not the minor release ${minor.hostVersion}`);
  for (const check of minor.peerRanges.filter((c) => !c.accepts)) problems.push(`${check.name}@${check.version}'s peer range ${check.range} refuses the minor host ${check.hostVersion}`);
  if (!minor.outcome.ok) problems.push(`npm install of ${HOST_PACKAGE}@${minor.hostVersion} failed (${minor.outcome.errorCode}):\n${minor.outcome.output}`);
  if (minor.installedHost !== minor.hostVersion) problems.push(`after installing the minor, ${HOST_PACKAGE}@${minor.installedHost} is installed`);
  served('after the minor host release', minor.probe);

  if (major.distTags['next'] !== major.hostVersion || major.distTags['latest'] === major.hostVersion) problems.push(`the major ${major.hostVersion} should be tagged next, not latest (dist-tags ${JSON.stringify(major.distTags)})`);
  for (const check of major.peerRanges.filter((c) => c.accepts)) problems.push(`${check.name}@${check.version}'s peer range ${check.range} accepts the incompatible host ${check.hostVersion}`);
  if (major.fresh.ok || major.fresh.errorCode !== 'ERESOLVE') problems.push(`a fresh npm install of the incompatible ${HOST_PACKAGE}@${major.hostVersion} with the extensions was not refused with ERESOLVE (ok: ${major.fresh.ok}, code ${major.fresh.errorCode})`);
  if (!major.upgrade.ok || major.installedHost !== major.hostVersion) problems.push(`upgrading to ${HOST_PACKAGE}@${major.hostVersion} in the project did not install it:\n${major.upgrade.output}`);
  const refusedAtLoad = major.probe.summary.skipped.filter((s) => s.why.some((w) => w.includes(`[${INCOMPATIBLE_CODE}]`)));
  if (major.probe.summary.loaded.length + major.probe.summary.held.length > 0 || refusedAtLoad.length === 0) {
    problems.push(`with the incompatible host, the server loaded ${JSON.stringify(major.probe.summary.loaded)}, held ${JSON.stringify(major.probe.summary.held)} and refused ${refusedAtLoad.length} extension(s) with ${INCOMPATIBLE_CODE}`);
  }
  return problems;
}

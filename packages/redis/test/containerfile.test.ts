/**
 * deploy/Containerfile, read the way an editor's Dockerfile language server
 * reads it (dockerfile-utils' validator, dockerfile-ast's parser) — no
 * container engine runs here, so the image is not built by this test. It
 * checks the file is valid and that it agrees with the repository: the Node
 * major the packages need, the demo's package name and entry file, one
 * `/app` shared by both stages, the port it exposes and serves, and an
 * unprivileged user.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');
const CONTAINERFILE = read('../../../deploy/Containerfile');
const demo = JSON.parse(read('../../../apps/demo/package.json')) as { name: string; engines: { node: string }; scripts: { start: string } };
const dockerfile = DockerfileParser.parse(CONTAINERFILE);

/** The instructions of build stage `index` (0: the first FROM), keyword and arguments. */
function stage(index: number): Instruction[] {
  const froms = dockerfile.getFROMs();
  const start = froms[index]!.getRange().start.line;
  const end = froms[index + 1]?.getRange().start.line ?? Number.POSITIVE_INFINITY;
  return dockerfile.getInstructions().filter((i) => i.getRange().start.line >= start && i.getRange().start.line < end);
}
const argsOf = (instructions: Instruction[], keyword: string) => instructions.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? '');

describe('deploy/Containerfile', () => {
  it('has no problem the Dockerfile validator knows of', () => {
    const problems = validate(CONTAINERFILE).map((d) => `line ${d.range.start.line + 1}: ${typeof d.message === 'string' ? d.message : d.message.value}`);
    expect(problems).toEqual([]);
  });

  it('builds on the Node major the packages need, in two stages sharing /app', () => {
    const [build, run] = dockerfile.getFROMs();
    const nodeMajor = /(\d+)/.exec(demo.engines.node)![1];
    for (const from of [build!, run!]) {
      expect(from.getImageName()).toBe('node');
      expect(from.getImageTag()?.split('-')[0]).toBe(nodeMajor);
    }
    expect(dockerfile.getFROMs()).toHaveLength(2);
    const buildStage = build!.getBuildStage();
    expect(argsOf(stage(0), 'RUN').join(' ')).toContain(`pnpm --filter ${demo.name} deploy --prod /app`);
    // getFlags(), not getFromFlag(): the latter answers null when a second flag (--chown) follows.
    const copy = dockerfile.getCOPYs().find((c) => c.getFlags().some((f) => f.getName() === 'from'))!;
    expect(copy.getFlags().find((f) => f.getName() === 'from')!.getValue()).toBe(buildStage);
    expect(copy.getArguments().map((a) => a.getValue()).slice(-2)).toEqual(['/app', '/app']);
    expect(argsOf(stage(1), 'WORKDIR')).toEqual(['/app']);
  });

  it('runs the demo’s entry file as an unprivileged user, serving the port it exposes', () => {
    const run = stage(1);
    expect(argsOf(run, 'USER')).toEqual(['node']);
    const entrypoint = dockerfile.getENTRYPOINTs().at(-1)!.getJSONStrings().map((s) => s.getJSONValue());
    // The demo's own start script is `node <entry>`: the image runs the same file.
    expect(entrypoint).toEqual(demo.scripts.start.split(' '));
    const cmd = dockerfile.getCMDs().at(-1)!.getJSONStrings().map((s) => s.getJSONValue());
    const port = cmd[cmd.indexOf('--port') + 1];
    expect(argsOf(run, 'EXPOSE')).toEqual([port]);
    expect(cmd).toContain('0.0.0.0');
  });
});

/** `list_spaces`: the spaces there are, with what each holds. */
import { defineTool } from '@reactor/host';
import { z } from 'zod';
import { fileOfEntry, readText, spaceFileUri, type FileRef } from '../files.js';
import { isNotebookPath } from '../fileTypes.js';
import type { SpacesRuntime } from '../runtime.js';
import { capItems } from '@reactor/host';
import { spaceRealDir } from '../safePath.js';
import type { RefusedSpace } from '../spaceRoots.js';
import { walk } from '../walk.js';
import { READ_ONLY_LOCAL } from './common.js';

const spaceSummary = z.object({
  name: z.string(),
  title: z.string().optional().describe('The first heading of the space\'s README, if any.'),
  description: z.string().optional().describe('The first paragraph of the space\'s README, if any.'),
  files: z.number().int().describe('Files in the space (hidden ones excluded).'),
  notebooks: z.number().int().describe('Jupyter notebooks among them.'),
  truncated: z.boolean().optional().describe('True when the space was too large to count fully.'),
  uri: z.string().describe('The spaces:// URI of the space\'s folder.'),
});

/** The result of `list_spaces`. */
export const listSpacesOutput = z.object({
  spaces: z.array(spaceSummary),
  source: z.enum(['options', 'env', 'sample']).describe('Where the roots came from: the extension\'s options, REACTOR_SPACES_ROOT, or the sample shipped with the extension.'),
  truncated: z.boolean().describe('True when something was left out: spaces beyond what one answer carries, or a space too large to count fully (its own truncated says which).'),
  notes: z.array(z.string()).optional().describe('What was refused as a space and why, e.g. a symbolic link leading outside its folder of spaces. Absent when nothing was.'),
});

/** The most refusals `list_spaces` names one by one (the rest are counted in one more note), and the longest name shown: notes stay well inside the smallest answer cap. */
const MAX_NOTES = 10;
const MAX_NOTE_NAME = 60;

/** Makes the `list_spaces` tool. */
export function createListSpacesTool(runtime: SpacesRuntime) {
  return defineTool({
    name: 'list_spaces',
    title: 'List spaces',
    description: 'List the spaces (folders of someone\'s work: notebooks, documents, data files) with a short description and how many files and notebooks each holds. Start here.',
    inputSchema: z.object({}),
    outputSchema: listSpacesOutput,
    annotations: READ_ONLY_LOCAL,
    handler: async (_args, ctx): Promise<z.infer<typeof listSpacesOutput>> => {
      const spaces = [];
      const scan = await runtime.scan();
      for (const space of scan.spaces) {
        const walked = await walk(space, { relative: '', absolute: await spaceRealDir(space) }, { includeDirectories: false, maxEntries: runtime.limits.maxWalkEntries, signal: ctx.signal });
        const readme = walked.entries.find((e) => /^readme(\.md|\.txt)?$/i.test(e.path));
        const about = readme ? describeReadme(await readReadme(fileOfEntry(space, readme))) : {};
        spaces.push({
          name: space.name,
          ...about,
          files: walked.entries.length,
          notebooks: walked.entries.filter((e) => isNotebookPath(e.path)).length,
          ...(walked.truncated ? { truncated: true } : {}),
          uri: spaceFileUri(space.name, ''),
        });
      }
      const source = runtime.roots().source;
      const counted = spaces.every((space) => space.truncated !== true);
      const notes = refusalNotes(scan.refused);
      const { result, omitted } = capItems(spaces, runtime.budget, (kept) => ({ spaces: [...kept], source, truncated: !counted, ...(notes.length > 0 ? { notes } : {}) }));
      return omitted > 0 ? { ...result, truncated: true } : result;
    },
  });
}

// Names only: where a link leads is the operator's business (the start-up log says it), not a client's.
function refusalNotes(refused: readonly RefusedSpace[]): string[] {
  const shown = (name: string) => JSON.stringify([...name].length > MAX_NOTE_NAME ? `${[...name].slice(0, MAX_NOTE_NAME - 1).join('')}…` : name);
  const notes = refused.slice(0, MAX_NOTES).map((r) => `refused ${shown(r.name)}: ${r.reason}; only folders inside it are served`);
  return refused.length > MAX_NOTES ? [...notes, `refused ${refused.length - MAX_NOTES} more like these`] : notes;
}

async function readReadme(file: FileRef): Promise<string> {
  try {
    return (await readText(file, 1024 * 1024)).text;
  } catch {
    return ''; // an unreadable or huge README only costs the description
  }
}

/** The title (first heading) and description (first paragraph) of a README. */
export function describeReadme(text: string): { title?: string; description?: string } {
  const blocks = text.split(/\r?\n\s*\r?\n/).map((b) => b.trim()).filter((b) => b !== '');
  const heading = blocks.find((b) => /^#{1,6}\s/.test(b));
  const paragraph = blocks.find((b) => !/^(#|\||[-*]\s|```|<)/.test(b));
  const title = heading?.split(/\r?\n/)[0]?.replace(/^#+\s*/, '').trim();
  const description = paragraph?.replace(/\s*\r?\n\s*/g, ' ');
  return {
    ...(title ? { title } : {}),
    ...(description ? { description: description.length > 300 ? `${description.slice(0, 297)}...` : description } : {}),
  };
}

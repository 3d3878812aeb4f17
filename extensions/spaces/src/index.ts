/**
 * `@reactor/ext-spaces`: spaces for Reactor MCP. A *space* is a folder of
 * someone's work — notebooks, documents, data files — that a model can list,
 * read and search, never write, and never leave.
 */
import { readFileSync } from 'node:fs';
import { defineExtension, ErrorCodes, type McpExtension } from '@reactor/host';
import { EXTENSION_NAME, spaceError } from './errors.js';
import { createSummarizeNotebookPrompt } from './prompt.js';
import { createSpaceFileResource, createSpaceResource } from './resource.js';
import { createRuntime, type SpacesOptions } from './runtime.js';
import { checkRoots, SPACES_ROOT_ENV } from './spaceRoots.js';
import { createFindNotebooksTool } from './tools/findNotebooks.js';
import { createListFilesTool } from './tools/listFiles.js';
import { createListSpacesTool } from './tools/listSpaces.js';
import { createReadFileTool } from './tools/readFile.js';
import { createReadNotebookTool } from './tools/readNotebook.js';
import { createSearchTextTool } from './tools/searchText.js';

export type { SpacesOptions, SpacesLimits, SpacesRuntime } from './runtime.js';
export { DEFAULT_LIMITS, MAX_RESPONSE_TOKENS_ENV, MIN_RESPONSE_TOKENS, MAX_RESPONSE_CHARS_ENV, MIN_RESPONSE_CHARS, createRuntime } from './runtime.js';
export type { Space, RootEntry, RootsOption, ResolvedRoots, RootsSource, RefusedSpace, SpacesScan } from './spaceRoots.js';
export { SPACES_ROOT_ENV, SAMPLE_ROOT, parseRootSpec, resolveRoots, listSpaces, scanSpaces } from './spaceRoots.js';
export type { ResolvedPath } from './safePath.js';
export { normalizeSpacePath, resolveInSpace } from './safePath.js';
export type { Notebook, NotebookCell, NotebookOutput, ParseNotebookOptions } from './notebook.js';
export { parseNotebook, summarizeOutput, notebookTranscript } from './notebook.js';
export { spaceFileUri } from './files.js';
export { SPACE_FILE_TEMPLATE, createSpaceFileResource } from './resource.js';
export { createSummarizeNotebookPrompt } from './prompt.js';
export type { SpacesTool } from './tools/common.js';
export { READ_ONLY_LOCAL } from './tools/common.js';
export { createListSpacesTool, listSpacesOutput } from './tools/listSpaces.js';
export { createListFilesTool, listFilesOutput } from './tools/listFiles.js';
export { createReadFileTool, readFileOutput } from './tools/readFile.js';
export { createFindNotebooksTool, findNotebooksOutput } from './tools/findNotebooks.js';
export { createReadNotebookTool, readNotebookOutput } from './tools/readNotebook.js';
export { createSearchTextTool, searchTextOutput } from './tools/searchText.js';

/** The tool names this extension offers (other extensions extend them by these names). */
export const SPACES_TOOL_NAMES = ['list_spaces', 'list_files', 'read_file', 'find_notebooks', 'read_notebook', 'search_text'] as const;

/** The package's version, read from its package.json (one level above both `src/` and `dist/`). */
export const SPACES_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const INSTRUCTIONS = `Spaces are folders of someone's work: Jupyter notebooks, documents and data files. These tools only read.
- Start with list_spaces; browse a space with list_files (recursive: true for everything below a folder; long listings come in pages: continue with cursor = nextCursor).
- find_notebooks finds notebooks whose name or cells mention every word of a query (a dataset file name, a library, a result); read_notebook then shows the cells with their outputs summarised. A long notebook comes in pages: continue with cells.start = nextCell.
- read_file returns text in pages counted in characters: call again with offset = nextOffset until nextOffset is null; head: N gives N lines from offset, tail: N the last N lines. Images come back as image content; other binary files are refused: fetch them as the resource spaces://{space}/{path} instead.
- search_text finds lines containing a phrase across a space, notebook outputs searched in full; narrow it with glob ("*.csv", "notes/**/*.md").
- An answer that left anything out says truncated: true; page on (nextCursor, nextCell, nextOffset) or narrow the request.
- Paths are relative to the space, with "/" separators. ".." above the space, absolute paths, hidden files and links leading outside are refused.`;

/** The most refused top-level links the start-up warning names (it counts them all). */
const MAX_REFUSED_LOGGED = 20;

/**
 * Makes the spaces extension. Options are checked at once (invalid ones throw
 * `REACTOR_OPTION_INVALID`); the roots are read on first use, and `onStart`
 * fails when a configured root is not a readable folder, and warns about
 * top-level symbolic links refused as spaces (they lead outside their root).
 */
export function createSpacesExtension(options: SpacesOptions = {}): McpExtension {
  const runtime = createRuntime(options);
  return defineExtension({
    manifest: {
      name: EXTENSION_NAME,
      version: SPACES_VERSION,
      title: 'Spaces',
      description: 'List, read and search spaces: folders of notebooks, documents and data.',
    },
    toolsets: () => [
      {
        name: 'spaces',
        title: 'Spaces',
        description: 'Read folders of work — notebooks, documents, data: list, read, search.',
        default: true,
        instructions: INSTRUCTIONS,
      },
    ],
    tools: () => [
      createListSpacesTool(runtime),
      createListFilesTool(runtime),
      createReadFileTool(runtime),
      createFindNotebooksTool(runtime),
      createReadNotebookTool(runtime),
      createSearchTextTool(runtime),
    ],
    resources: () => [createSpaceFileResource(runtime), createSpaceResource(runtime)],
    prompts: () => [createSummarizeNotebookPrompt(runtime)],
    onStart: async ({ logger }) => {
      const roots = runtime.roots();
      const problems = await checkRoots(roots.entries);
      if (problems.length > 0) {
        throw spaceError('extension "spaces"', `cannot read its ${roots.source === 'env' ? SPACES_ROOT_ENV : 'roots'}: ${problems.join('; ')}`, {
          expected: 'folders that exist and can be read',
          hint: `fix the ${roots.source === 'env' ? `${SPACES_ROOT_ENV} variable` : '"roots" option'}, or leave it unset to serve the sample`,
        }, ErrorCodes.OPTION_INVALID);
      }
      const { refused } = await runtime.scan();
      if (refused.length > 0) {
        const shown = refused.slice(0, MAX_REFUSED_LOGGED);
        const more = refused.length > shown.length ? `, and ${refused.length - shown.length} more` : '';
        logger.warn(
          { refused: shown.map(({ name, root, target }) => ({ name, root, target })), count: refused.length },
          `extension "spaces": refused ${refused.length} symbolic link(s) at the top of a folder of spaces, not served as spaces: ${shown.map((r) => `${JSON.stringify(r.name)} (${r.root}) → ${r.target}`).join(', ')}${more}; hint: move the folder inside its folder of spaces, or serve it as a root of its own (name=/path/to/folder)`,
        );
      }
    },
  });
}

/** The extension with its defaults: roots from `REACTOR_SPACES_ROOT`, else the shipped sample. */
const spaces: McpExtension = createSpacesExtension();
export default spaces;

/**
 * The `space-file` resource template, `spaces://{space}/{+path}`: any file of
 * any space, text as text and binary as a base64 blob, so a client can fetch
 * what `read_file` refuses (an image, a PDF). A folder reads as its listing.
 */
import { promises as fs } from 'node:fs';
import type { ListedResource, ReadResourceResult, ResourceSpec } from '@reactor/host';
import { spaceError } from './errors.js';
import { assertLoadable, fileOfEntry, fileOfPath, spaceFileUri } from './files.js';
import { isBinaryByName, looksBinary, mimeTypeOf } from './fileTypes.js';
import type { SpacesRuntime } from './runtime.js';
import { resolveInSpace, spaceRealDir } from './safePath.js';
import { walk } from './walk.js';

/** The URI template of a file in a space. */
export const SPACE_FILE_TEMPLATE = 'spaces://{space}/{+path}';

/** How many files `resources/list` names at most (across all spaces). */
export const MAX_LISTED_RESOURCES = 1000;

/** Makes the `space-file` resource template. */
export function createSpaceFileResource(runtime: SpacesRuntime): ResourceSpec {
  return {
    name: 'space-file',
    template: SPACE_FILE_TEMPLATE,
    title: 'File in a space',
    description: 'A file of a space: text files as text, binary files (images, PDFs…) as base64 blobs; a folder reads as a JSON listing. Example: spaces://climate-lab/README.md',
    read: async (uri, variables) => await readInSpace(runtime, uri, decodeVariable(variables.space, 'space'), decodeVariable(variables.path, 'path')),
    list: async () => {
      const listed: ListedResource[] = [];
      for (const space of await runtime.spaces()) {
        const room = MAX_LISTED_RESOURCES - listed.length;
        if (room <= 0) break;
        const walked = await walk(space, { relative: '', absolute: await spaceRealDir(space) }, { includeDirectories: false, maxEntries: room });
        for (const entry of walked.entries) {
          const file = fileOfEntry(space, entry);
          listed.push({ uri: spaceFileUri(space.name, file.relative), name: `${space.name}/${file.relative}`, mimeType: mimeTypeOf(file.relative) });
        }
      }
      return listed;
    },
    complete: {
      space: async (value) => {
        const prefix = value.toLowerCase();
        return (await runtime.spaces()).map((s) => s.name).filter((name) => name.toLowerCase().startsWith(prefix));
      },
    },
  };
}

// Template variables arrive percent-encoded, exactly as in the URI.
function decodeVariable(value: string | string[] | undefined, name: string): string {
  const raw = Array.isArray(value) ? value.join('/') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw spaceError(`the ${name} of a spaces:// URI`, 'is not valid percent-encoding', { received: JSON.stringify(raw.slice(0, 60)), hint: 'encode it with encodeURIComponent' });
  }
}

/** The URI template of a space itself (what `list_spaces` hands out): reads as the listing of its top folder. */
export const SPACE_TEMPLATE = 'spaces://{space}/';

/** Makes the `space` resource template: `spaces://climate-lab/` reads as the space's top-level listing. */
export function createSpaceResource(runtime: SpacesRuntime): ResourceSpec {
  return {
    name: 'space',
    template: SPACE_TEMPLATE,
    title: 'A space',
    description: 'A space itself, as list_spaces names it: reads as the JSON listing of its top folder. Example: spaces://climate-lab/',
    read: async (uri, variables) => await readInSpace(runtime, uri, decodeVariable(variables.space, 'space'), ''),
  };
}

/** Reads a file (text or base64 blob) or a folder (a JSON listing) of a space. */
async function readInSpace(runtime: SpacesRuntime, uri: URL, spaceName: string, userPath: string): Promise<ReadResourceResult> {
  const space = await runtime.space(spaceName);
  const resolved = await resolveInSpace(space, userPath);
  const canonical = spaceFileUri(space.name, resolved.relative);
  if (resolved.stats.isDirectory()) {
    const walked = await walk(space, resolved, { recursive: false, maxEntries: runtime.limits.maxWalkEntries });
    const entries = walked.entries.map((e) => ({ path: e.path, type: e.type, size: e.size, uri: spaceFileUri(space.name, e.path) }));
    return { contents: [{ uri: canonical, mimeType: 'application/json', text: JSON.stringify({ space: space.name, path: resolved.relative, entries, truncated: walked.truncated }, null, 2) }] };
  }
  if (!resolved.stats.isFile()) throw spaceError(`resource ${uri.href}`, 'is not a regular file');
  const file = fileOfPath(resolved);
  assertLoadable(file, runtime.limits.maxFileBytes);
  const bytes = await fs.readFile(file.absolute);
  if (isBinaryByName(file.relative) || looksBinary(bytes)) return { contents: [{ uri: canonical, mimeType: mimeTypeOf(file.relative, true), blob: bytes.toString('base64') }] };
  return { contents: [{ uri: canonical, mimeType: mimeTypeOf(file.relative), text: new TextDecoder('utf-8').decode(bytes) }] };
}

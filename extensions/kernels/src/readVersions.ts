/**
 * Which version of a notebook each reader last read: the `last_modified`
 * Jupyter reported when `open_notebook` or `read_notebook` showed it to a
 * caller (or when the caller's own write made it). The writing tools change a
 * notebook only if it is still that version — a person's save, another
 * client's write, or a cell that rewrote its own file since then refuses the
 * change, never overwrites it.
 *
 * A reader is one owner (owner.ts) in one MCP session: a caller's other
 * conversation has not read what this one did. Bounded: the least recently
 * used entries go first; a forgotten read only means "read it again".
 */
import type { ToolContext } from '@reactor/host';
import { ownerOf } from './owner.js';

/** The versions one extension remembers (each a few hundred bytes). */
export const KEPT_READ_VERSIONS = 4096;

export class ReadVersions {
  private readonly versions = new Map<string, string>();

  constructor(private readonly max = KEPT_READ_VERSIONS) {}

  private static key(ctx: Pick<ToolContext, 'tenant' | 'http' | 'sessionId'> | undefined, jupyterPath: string): string {
    return JSON.stringify([ownerOf(ctx).key, ctx?.sessionId ?? null, jupyterPath]);
  }

  /** Records that the caller read (or wrote) the notebook at this version. */
  seen(ctx: Pick<ToolContext, 'tenant' | 'http' | 'sessionId'> | undefined, jupyterPath: string, lastModified: string): void {
    const key = ReadVersions.key(ctx, jupyterPath);
    this.versions.delete(key);
    this.versions.set(key, lastModified);
    while (this.versions.size > this.max) this.versions.delete(this.versions.keys().next().value as string);
  }

  /** The version the caller last read, if remembered. */
  lastRead(ctx: Pick<ToolContext, 'tenant' | 'http' | 'sessionId'> | undefined, jupyterPath: string): string | undefined {
    return this.versions.get(ReadVersions.key(ctx, jupyterPath));
  }

  /** How many are remembered. */
  get size(): number {
    return this.versions.size;
  }
}

/**
 * Whose kernels and runs a call reaches: its owner, the tenant its connection
 * serves plus the principal its token names (`principalOf`, the way sessions
 * are bound). A kernel's process state — variables, imports, `In`/`Out`
 * history — is shared by whoever runs code on it, so kernels are per owner,
 * like the runs on them: another owner gets its own kernel of the same
 * notebook, and "not found" for anything of someone else's.
 *
 * Each owner's kernel of a notebook lives in a Jupyter session of its own,
 * at the notebook's path plus a tag derived from the owner
 * (`lab/basics.ipynb#reactor-<16 hex>`): Jupyter keys sessions by path, and
 * starts the kernel in the folder of that path, the notebook's folder. The
 * one exception is the **shared** owner — no tenant, no token: a server
 * without auth, where every caller is the same anonymous principal. It uses
 * the notebook's own session, the one a person who opens the notebook in
 * JupyterLab gets too.
 */
import { createHash } from 'node:crypto';
import { principalOf, type ToolContext } from '@reactor/host';

/** The owner of kernels and runs. */
export interface KernelOwner {
  /** Compares owners: one string per (tenant, principal); `''` for the shared owner. */
  readonly key: string;
  /** True for the anonymous caller of a server without tenants: it uses notebooks' own sessions. */
  readonly shared: boolean;
  /** The path of this owner's Jupyter session for a notebook. */
  sessionPath(jupyterPath: string): string;
  /** Whether a Jupyter session (by its path) is this owner's. */
  owns(sessionPath: string): boolean;
}

/** The tag an owner's session path ends with. */
const TAG = /#reactor-[0-9a-f]{16}$/;

/** The anonymous caller of a server without auth or tenants. */
export const SHARED_OWNER: KernelOwner = Object.freeze({
  key: '',
  shared: true,
  sessionPath: (jupyterPath: string) => jupyterPath,
  owns: (sessionPath: string) => !TAG.test(sessionPath),
});

/** The owner of a tool call. */
export function ownerOf(ctx: Pick<ToolContext, 'tenant' | 'http'> | undefined): KernelOwner {
  const tenant = ctx?.tenant;
  const principal = principalOf(ctx?.http?.authInfo);
  if (tenant === undefined && principal === undefined) return SHARED_OWNER;
  const key = JSON.stringify([tenant ?? null, principal ?? null]);
  const tag = `#reactor-${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 16)}`;
  return Object.freeze({ key, shared: false, sessionPath: (jupyterPath: string) => `${jupyterPath}${tag}`, owns: (sessionPath: string) => sessionPath.endsWith(tag) });
}

/** The notebook's path on the Jupyter Server of a session path (without an owner's tag). */
export function notebookPathOf(sessionPath: string): string {
  return sessionPath.replace(TAG, '');
}

import { join } from 'node:path';
import * as vm from 'node:vm';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Loads PGlite. Normally a plain require. Under Jest without --experimental-vm-modules, PGlite
 * cannot start inside the test sandbox (its Emscripten glue calls `import('node:module')`, which
 * Node refuses inside vm scripts), so it is loaded through Node's own loader instead. It then lives
 * in the host realm: its rows, Dates and errors are not `instanceof` the sandbox's classes, so the
 * adapter copies them across (see toLocalRealm / toHostRealm / localError); in production none of
 * this runs.
 */
export interface PgliteModule {
  PGlite: typeof PGlite;
  crossRealm: boolean;
}

let loaded: PgliteModule | undefined;

export function loadPglite(): PgliteModule {
  loaded ??= sandboxedWithoutVmModules() ? loadFromHost() : { PGlite: require('@electric-sql/pglite').PGlite, crossRealm: false };
  return loaded;
}

/** Node's core modules are host-realm objects: inside a vm sandbox their functions are not our Functions. */
function sandboxedWithoutVmModules(): boolean {
  const inSandbox = !(join instanceof Function);
  const vmModules = typeof (vm as { SyntheticModule?: unknown }).SyntheticModule === 'function';
  return inSandbox && !vmModules;
}

function loadFromHost(): PgliteModule {
  // Jest's `module` is a stand-in whose createRequire stays in the sandbox; the static _load it
  // copies from Node's Module is the real loader.
  const nodeModule = require('node:module') as { _load(request: string, parent: null, isMain: boolean): unknown };
  const entry = require.resolve('@electric-sql/pglite');
  const exports = nodeModule._load(entry, null, false) as typeof import('@electric-sql/pglite');
  return { PGlite: exports.PGlite, crossRealm: true };
}

const tag = (value: object): string => Object.prototype.toString.call(value);

/** Deep-copies a value produced in the host realm into this realm (rows, arrays, Dates, JSON). */
export function toLocalRealm(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Array.from(value, toLocalRealm);
  switch (tag(value)) {
    case '[object Date]':
      return new Date((value as Date).getTime());
    case '[object Uint8Array]':
      return new Uint8Array(value as Uint8Array);
    default:
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toLocalRealm(item)]));
  }
}

/** Makes parameters acceptable to host-realm PGlite, whose serializers test `instanceof Date`/`Uint8Array`. */
export function toHostRealm(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(toHostRealm);
  if (tag(value) === '[object Date]') return (value as Date).toISOString();
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

/** A host-realm error becomes a local Error with the same message, name and fields (code, detail, …). */
export function localError(error: unknown): unknown {
  if (error instanceof Error || error === null || typeof error !== 'object' || !tag(error).includes('Error')) return error;
  const source = error as Error & Record<string, unknown>;
  const local = new Error(source.message, { cause: error }) as Error & Record<string, unknown>;
  for (const [key, item] of Object.entries(source)) local[key] = item;
  local.name = source.name;
  if (source.stack) local.stack = source.stack;
  return local;
}

import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import type { LocalCommandPolicy } from '@palimpsest/application/relay/narrow-policy';
import { checkLocalCommandPolicy } from '@palimpsest/protocol/executor/local-command-policy';
import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { ExecutorProject } from '@palimpsest/protocol/executor/executor-messages';
import { UsageError } from '../cli-errors';

/** A project this executor holds: the name people use (the hello's slug), its id, and its directory. */
export interface LocalProject extends ExecutorProject {
  root: string;
  /** The machine owner's policy for it (--policy name=file): it narrows the gateway's, never widens it. */
  policy: LocalCommandPolicy | null;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\0'), 'utf8').digest('hex').slice(0, 32);

/** `--project name=dir`, each: a name of letters, digits, `.`, `_`, `-` (64 at most) and an existing directory. */
export function parseProjects(specs: string[], cwd: string): { deviceId: string; projects: LocalProject[] } {
  if (specs.length === 0) throw new UsageError('--project <name>=<dir> is required (repeat it for more projects)');
  const named = specs.map((spec) => {
    const at = spec.indexOf('=');
    const name = at < 0 ? '' : spec.slice(0, at);
    const dir = at < 0 ? '' : spec.slice(at + 1);
    if (!NAME.test(name) || dir === '') throw new UsageError(`--project ${JSON.stringify(spec)}: expected <name>=<dir>, the name of letters, digits, ".", "_" or "-"`);
    return { name, root: directory(resolve(cwd, dir), spec) };
  });
  const names = new Set<string>();
  for (const { name } of named) {
    if (names.has(name)) throw new UsageError(`--project: the name ${JSON.stringify(name)} is given twice`);
    names.add(name);
  }
  // Stable across restarts without a state file: the same user on the same machine serving the same
  // directories is the same device, so a restarted executor replaces its earlier connection.
  const deviceId = `dev_${digest(hostname(), userInfo().username, ...named.map((p) => p.root).sort())}`;
  const projects = named.map(({ name, root }) => ({ id: `prj_${digest(deviceId, root)}`, slug: name, root, policy: null }));
  return { deviceId, projects };
}

function directory(path: string, spec: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new UsageError(`--project ${JSON.stringify(spec)}: ${path} does not exist`);
  }
  if (!statSync(real).isDirectory()) throw new UsageError(`--project ${JSON.stringify(spec)}: ${path} is not a directory`);
  return real;
}

/** `http(s)://host[:port][/base]` or `ws(s)://…` → the WebSocket URL of the executor endpoint. */
export function connectUrl(gateway: string, path: string): string {
  let url: URL;
  try {
    url = new URL(gateway);
  } catch {
    throw new UsageError(`--gateway ${JSON.stringify(gateway)}: not a URL (e.g. http://127.0.0.1:3000)`);
  }
  const scheme = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' }[url.protocol];
  if (!scheme) throw new UsageError(`--gateway ${JSON.stringify(gateway)}: use http, https, ws or wss`);
  url.protocol = scheme;
  if (!url.pathname.endsWith(path)) url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url.toString();
}

/** `--policy name=file`, each: a project's local policy, a JSON file the protocol's localCommandPolicy schema allows. */
export function attachPolicies(projects: LocalProject[], specs: string[], cwd: string): LocalProject[] {
  const policies = new Map<string, LocalCommandPolicy>();
  for (const spec of specs) {
    const at = spec.indexOf('=');
    const name = at < 0 ? '' : spec.slice(0, at);
    const file = at < 0 ? '' : resolve(cwd, spec.slice(at + 1));
    if (!projects.some((p) => p.slug === name) || file === cwd) throw new UsageError(`--policy ${JSON.stringify(spec)}: expected <name>=<file> naming a --project`);
    if (policies.has(name)) throw new UsageError(`--policy: the project ${JSON.stringify(name)} is given two policies`);
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`--policy ${JSON.stringify(spec)}: ${(error as Error).message}`);
    }
    const checked = checkLocalCommandPolicy(value);
    if (!checked.ok) throw new UsageError(`--policy ${JSON.stringify(spec)}: ${checked.problem}`);
    policies.set(name, value as LocalCommandPolicy);
  }
  return projects.map((p) => ({ ...p, policy: policies.get(p.slug) ?? null }));
}

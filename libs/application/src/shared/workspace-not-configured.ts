import { basename } from 'node:path';
import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';

/**
 * `workspace_not_configured`, naming the process that must be given a root: the one answering. A
 * `palimpsest mcp` relayed to a gateway does not run the tools itself, so the answer names the gateway
 * (`palimpsest api`), not the command the agent's client started.
 */
export function workspaceNotConfigured(what: string, extra: RefusalDetails = {}, argv: readonly string[] = process.argv): InvalidArgument {
  const command = servingCommand(argv);
  const who = command ? `this ${command} (pid ${process.pid})` : `this process (pid ${process.pid})`;
  const how = command ? `restart it as \`${command} --workspace <dir>\` (or with PALIMPSEST_WORKSPACE_ROOT=<dir>)` : 'start it with PALIMPSEST_WORKSPACE_ROOT=<dir>';
  return invalidArgument('workspace_not_configured', `${what}, and ${who} has no workspace root: ${how}.`, extra);
}

/** `palimpsest api`, `palimpsest mcp`, … when this process is the CLI; null otherwise (a test, an embedding). */
export function servingCommand(argv: readonly string[]): string | null {
  const cli = argv.findIndex((arg, i) => i <= 1 && /^palimpsest(\.js)?$/.test(basename(arg)));
  const command = cli >= 0 ? argv[cli + 1] : undefined;
  return command && /^[a-z][a-z-]*$/.test(command) ? `palimpsest ${command}` : null;
}

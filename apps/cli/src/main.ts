import { Command } from 'commander';
import { HELP_FOOTER, VERSION } from './cli-errors';
import { registerCall } from './commands/call.command';
import { registerMcp } from './commands/mcp.command';
import { registerMigrate } from './commands/migrate.command';
import { registerProjections } from './commands/projections.command';
import { registerProjector } from './commands/projector.command';
import { registerReplay } from './commands/replay.command';
import { registerGenerate } from './commands/generate.command';
import { registerServe } from './commands/serve.command';
import { registerStart } from './commands/start.command';
import { registerApi } from './commands/api.command';
import { registerTokens } from './commands/tokens.command';
import { registerApprovals } from './commands/approvals.command';
import { registerWorkspace } from './commands/workspace.command';
import { registerExport } from './commands/export.command';
import { registerVerify } from './commands/verify.command';
import { registerConnect } from './commands/connect.command';
import { registerProjects } from './commands/projects.command';
import { registerLog } from './commands/log.command';
import { CRASH_POINT_ENV, armCrashPoint } from '@palimpsest/testing/crash-point';
import { cliEnv } from './cli-config';

export function buildProgram(): Command {
  const program = new Command('palimpsest')
    .description('Guarded, event-sourced text transactions. Embedded PGlite by default; PostgreSQL with DATABASE_URL.')
    .version(VERSION, '-V, --version', 'print the version')
    .addHelpText('after', HELP_FOOTER)
    .showHelpAfterError('(palimpsest --help lists the commands, palimpsest <command> --help its options)')
    // Before the commands are added, so each inherits it: a usage error (unknown command or option, a
    // missing argument) exits 2 like every other invalid request; help and --version exit 0.
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
  registerStart(program);
  registerCall(program);
  registerMcp(program);
  registerMigrate(program);
  registerReplay(program);
  registerProjections(program);
  registerProjector(program);
  registerGenerate(program);
  registerServe(program);
  registerApi(program);
  registerTokens(program);
  registerApprovals(program);
  registerWorkspace(program);
  registerExport(program);
  registerVerify(program);
  registerConnect(program);
  registerProjects(program);
  registerLog(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  armCrashPoint(cliEnv()[CRASH_POINT_ENV]); // the crash tests' opt-in point; inert unless set
  await buildProgram().parseAsync(argv);
}

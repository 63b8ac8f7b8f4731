import { verifyGitCommits, type GitVerifyReport } from '@palimpsest/application/git-audit/verify-git.use-case';
import { auditConfigFrom } from '@palimpsest/projections/audit/audit-config';
import { cliEnv } from '../cli-config';
import { UsageError } from '../cli-errors';
import { withApp } from '../runtime';
import { configuredVerifierKey } from './export.command';

/**
 * `palimpsest verify --git <dir>`: each commit of the repository at the workspace root `dir` that carries
 * the attempt trailers, checked against the live store (verify-git.use-case.ts). Prints the report (each
 * commit checked) and names every failing commit on stderr; exit 1 when one fails.
 */
export async function verifyGit(dir: string, key: string | undefined): Promise<void> {
  const verifierKey = key?.trim() ?? (auditConfigFrom(cliEnv(), process.cwd()) ? configuredVerifierKey() : null);
  let report: GitVerifyReport;
  try {
    report = await withApp((ctx) => verifyGitCommits(ctx, dir, verifierKey));
  } catch (error) {
    // Not a work tree, or not a verifier key: the command was misused, nothing was checked.
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  for (const c of report.commits.filter((c) => !c.ok)) process.stderr.write(`palimpsest verify --git: FAILED: commit ${c.commit}: ${c.reason}\n`);
  if (!report.ok) process.exitCode = 1;
}

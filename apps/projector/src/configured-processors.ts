import { gitCommitsProcessor } from '@palimpsest/application/git-audit/git-commits.reactor';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { auditSigner, loadOrCreateAuditKey } from '@palimpsest/projections/audit/audit-signer';
import type { Db } from '@palimpsest/store/db';
import { gitCommitsConfigFrom, type GitCommitsConfig } from '@palimpsest/workspace/git/git-commits-config';
import type { LogProcessor } from './log-processor';
import type { ProjectorConfig } from './projector-config';
import type { ProjectorOptions } from './projector-consumer';
import type { RelayLogger } from './relay/relay-config';
import { RelayProcessor } from './relay/relay-processor';

/** The processors the configuration turns on besides the projections: the NATS relay when PALIMPSEST_NATS_URL is set. */
export function configuredProcessors(config: Pick<ProjectorConfig, 'relay'>, logger: RelayLogger): LogProcessor[] {
  return config.relay ? [new RelayProcessor({ ...config.relay, logger })] : [];
}

/** The git reactor when PALIMPSEST_GIT_COMMITS=attempt (read from the process's environment unless given). */
export function configuredReactors(git: GitCommitsConfig | null = gitCommitsConfigFrom(process.env)): ((db: Db) => LogProcessor)[] {
  return git ? [(db) => gitCommitsProcessor(appContext(db, { workspace: null }), git.workspaceRoot)] : [];
}

/** The projector's options from its configuration (read once by the composition root), with the process's logger and error report. */
export function configuredProjector(
  config: Pick<ProjectorConfig, 'relay' | 'batchSize'> & Partial<Pick<ProjectorConfig, 'audit' | 'leasePeriodMs'>> & { git?: GitCommitsConfig | null },
  logger: RelayLogger,
  onError?: (error: unknown, processor: string) => void,
): ProjectorOptions {
  const audit = config.audit ? { signer: auditSigner(loadOrCreateAuditKey(config.audit.keyFile)), policy: config.audit.policy } : undefined;
  // The verifier key, printed at start: what an auditor checks checkpoints and bundles against.
  if (audit) logger.info({ verifier_key: audit.signer.verifierKey, key_file: config.audit!.keyFile }, 'audit log: checkpoints signed by');
  const reactors = configuredReactors(config.git);
  return { processors: configuredProcessors(config, logger), reactors, runner: { batchSize: config.batchSize, ...(config.leasePeriodMs ? { leasePeriodMs: config.leasePeriodMs } : {}), ...(onError ? { onError } : {}) }, ...(audit ? { audit } : {}) };
}

import { auditSigner, loadOrCreateAuditKey } from '@palimpsest/projections/audit/audit-signer';
import type { LogProcessor } from './log-processor';
import type { ProjectorConfig } from './projector-config';
import type { ProjectorOptions } from './projector-consumer';
import type { RelayLogger } from './relay/relay-config';
import { RelayProcessor } from './relay/relay-processor';

/** The processors the configuration turns on besides the projections: the NATS relay when PALIMPSEST_NATS_URL is set. */
export function configuredProcessors(config: Pick<ProjectorConfig, 'relay'>, logger: RelayLogger): LogProcessor[] {
  return config.relay ? [new RelayProcessor({ ...config.relay, logger })] : [];
}

/** The projector's options from its configuration (read once by the composition root), with the process's logger and error report. */
export function configuredProjector(config: Pick<ProjectorConfig, 'relay' | 'batchSize'> & Partial<Pick<ProjectorConfig, 'audit'>>, logger: RelayLogger, onError?: (error: unknown, processor: string) => void): ProjectorOptions {
  const audit = config.audit ? { signer: auditSigner(loadOrCreateAuditKey(config.audit.keyFile)), policy: config.audit.policy } : undefined;
  // The verifier key, printed at start: what an auditor checks checkpoints and bundles against.
  if (audit) logger.info({ verifier_key: audit.signer.verifierKey, key_file: config.audit!.keyFile }, 'audit log: checkpoints signed by');
  return { processors: configuredProcessors(config, logger), runner: { batchSize: config.batchSize, ...(onError ? { onError } : {}) }, ...(audit ? { audit } : {}) };
}

import { candidateConfig } from '@palimpsest/application/candidates/shared/candidate-config';
import { readConfig, type PalimpsestConfig } from '@palimpsest/composition/palimpsest-config';

/**
 * The CLI's composition root for configuration, the one module of the CLI that reads the process's
 * environment. A command reads it when it starts, after its --workspace option has become the
 * process's setting (workspace-option.ts), and hands the parsed parts down.
 */
export function cliEnv(): NodeJS.ProcessEnv {
  return process.env;
}

export function cliConfig(): PalimpsestConfig {
  return readConfig(process.env, process.cwd());
}

/** PALIMPSEST_POLICY_FILE, for a profile named on the command line. */
export function cliPolicyFile(): string | null {
  return candidateConfig(process.env).policyFile;
}

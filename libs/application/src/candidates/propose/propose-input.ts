import { withoutSession } from '../../shared/session-metadata';
import type { BaseEntry } from '@palimpsest/core/candidate/candidate.commands';

export interface ProposeInput {
  request_id: string;
  base: { target_file_id: string; version: number }[];
  operations: Record<string, unknown>[];
  intent?: string | null;
  candidate?: string;
  expected_candidate_version?: number;
  checks?: string[];
  /** The caller's session (from the transport, never the arguments): recorded with the proposal's events. */
  session_id?: string | null;
}

/** The arguments as the caller sent them, for a next action that repeats them. */
export const proposeArgs = (input: ProposeInput): Omit<ProposeInput, 'session_id'> => withoutSession(input);

export const baseEntries = (base: ProposeInput['base']): BaseEntry[] =>
  base.map((b) => ({ target_id: b.target_file_id.toLowerCase(), version: b.version }));

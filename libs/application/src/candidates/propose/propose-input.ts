import type { BaseEntry } from '@palimpsest/core/candidate/candidate.commands';

export interface ProposeInput {
  request_id: string;
  base: { target_file_id: string; version: number }[];
  operations: Record<string, unknown>[];
  intent?: string | null;
  candidate?: string;
  expected_candidate_version?: number;
  checks?: string[];
}

export const baseEntries = (base: ProposeInput['base']): BaseEntry[] =>
  base.map((b) => ({ target_id: b.target_file_id.toLowerCase(), version: b.version }));

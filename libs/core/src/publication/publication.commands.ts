import type { FailedFile, InstalledFile, PlannedFile, PublicationFailureReason, PublicationKind } from './publication.events';

export interface StartPublication {
  type: 'StartPublication';
  now: string;
  journal_id: string;
  kind: PublicationKind;
  request_id: string | null;
  candidate_id: string | null;
  root_dev: string;
  root_ino: string;
  files: PlannedFile[];
}

export interface CompletePublication {
  type: 'CompletePublication';
  now: string;
  files: InstalledFile[];
  reconciled: boolean;
}

export interface FailPublication {
  type: 'FailPublication';
  now: string;
  state: 'rolled_back' | 'pending_reconcile';
  reason: PublicationFailureReason;
  detail: string;
  files: FailedFile[];
  reconciled: boolean;
}

export interface ResolvePublication {
  type: 'ResolvePublication';
  now: string;
  target_id: string;
  attempt_id: string | null;
}

export type PublicationCommand = StartPublication | CompletePublication | FailPublication | ResolvePublication;

import type { FailedFile, InstalledFile, PublicationFailureReason, PublicationStartedData } from './publication.events';

/** The journal's plan as PublicationStarted records it; the time is the command's. */
export type StartPublication = { type: 'StartPublication'; now: string } & Omit<PublicationStartedData, 'started_at'>;

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

import type { FailedFile, InstalledFile, PublicationFailureReason, PublicationStartedData } from './publication.events';

/** committed, rolled_back and resolved are final; started waits for its outcome; pending_reconcile for a person or a refresh. */
export type JournalState = 'started' | 'committed' | 'rolled_back' | 'pending_reconcile' | 'resolved';

/** A started journal: its plan (PublicationStarted's fields) and what its outcome recorded. */
export type ExistingJournal = Omit<PublicationStartedData, 'started_at'> & {
  exists: true;
  state: JournalState;
  started_at: string;
  finished_at: string | null;
  reason: PublicationFailureReason | null;
  detail: string | null;
  reconciled: boolean;
  /** What the outcome recorded of each file: installed (committed) or failed (rolled back, pending). */
  installed: InstalledFile[];
  failed: FailedFile[];
};

export type PublicationState = { exists: false } | ExistingJournal;

export const initialPublicationState: PublicationState = { exists: false };

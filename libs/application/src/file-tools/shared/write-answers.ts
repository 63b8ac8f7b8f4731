import type { ContentEol } from '@palimpsest/core/reads/export-target';
import type { FileToolRefusal } from './file-tool-refusal';
import type { NextAction } from '@palimpsest/core/errors/error-model';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { PublishResult } from '../../workspace-publication/publish-files';
import { installedUncertain, publicationRejected, workspaceStatusAction } from '../../workspace-publication/publication-answers';
import { pathRefusal } from './file-target';

/** What a published file-tool write leaves for its answer's audit fields. */
export interface Written {
  attempt_id: string | null;
  journal_id: string;
  bytes_written: number;
  disk_sha256: string;
  content_eol: ContentEol;
  cleanup_error: string | null;
}

const readAgain = (path: string, reason: string): NextAction => ({ operation: OP.read_file, reason, params: { path } });

const rejected = publicationRejected;

/**
 * A file-tool write the journal did not publish, as its answer. Before installation nothing changed on
 * disk and no accepted change was recorded (rejected); after it (partial) the file holds the new bytes
 * and the answer says what is not known.
 */
export function publicationRefusal<T>(result: Exclude<PublishResult<T>, { kind: 'published' | 'stopped' }>, path: string, targetId: string | null): FileToolRefusal {
  switch (result.kind) {
    case 'busy':
      return rejected(targetId, 'workspace_busy', `Another publication held the lease on the directory of ${path} for the whole ${result.waited_ms} ms this write waited its turn. Nothing was written: send the same call again.`, 'same_request', { paths: result.paths, waited_ms: result.waited_ms }, [
        readAgain(path, 'Nothing was written: see what the file holds now, then send the same call again'),
      ]);
    case 'pending':
      return rejected(targetId, 'recovery_required', `An interrupted publication left ${path} holding bytes that are neither its old nor its new version; it is never overwritten. A person must look at it (palimpsest_workspace_status, palimpsest_workspace_refresh).`, 'none', { journals: result.journals }, [
        workspaceStatusAction(path, 'See the file and its journal'),
      ]);
    case 'drift': {
      const d = result.drifted[0];
      const what = d.expected_sha256 === null ? `${path} appeared on disk while it was being created; the file that appeared was kept` : d.observed_sha256 === null ? `${path} is gone from disk` : `${path} was changed on disk after it was read`;
      return rejected(targetId, 'external_disk_drift', `${what}. Nothing was overwritten and no change was recorded: read the file again, then send the change again.`, 'after_refresh', {
        path, expected_sha256: d.expected_sha256, observed_sha256: d.observed_sha256, journal_id: result.journal_id,
      }, [readAgain(path, 'Read the file as it is now on disk, then send the change again')]);
    }
    case 'refused_path':
      return pathRefusal(result.refusal, path);
    case 'io_error':
      return rejected(targetId, 'workspace_io_error', `Writing ${path} failed: ${result.detail}. The journal ${result.journal_id} is ${result.state}.`, result.state === 'rolled_back' ? 'same_request' : 'none', { journal: { id: result.journal_id, state: result.state } }, [
        readAgain(path, 'Read the file to see what it holds'),
      ]);
    case 'durability_uncertain':
    case 'outcome_uncertain':
      return installedUncertain(result, path, targetId, 'the file');
  }
}

import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { Outcome } from '@palimpsest/protocol/outcome';
import type { RELAYED_TOOLS } from '@palimpsest/protocol/catalog/operations/projects.operations';

export type RelayedTool = (typeof RELAYED_TOOLS)[number];

/** A project an executor announced in its hello, online while that executor is connected. */
export interface RelayProject {
  id: string;
  slug: string;
  online: boolean;
}

/** One file or command tool call for a project an executor holds. */
export interface RelayCall {
  projectId: string;
  tool: RelayedTool;
  /** The tool's own arguments (without `project` and `client_request_id`). */
  arguments: Record<string, unknown>;
  /** The caller's idempotency key (client_request_id), or null: the relay makes one for this call. */
  key: string | null;
  /** The hosted policy in force for the caller: the executor may only narrow it. */
  policy: OwnerPolicy | null;
  correlationId: string | null;
  client: string | null;
  signal?: AbortSignal;
}

/**
 * The gateway's side of the executors (apps/api/src/executors): the projects they announced, and a call
 * sent to the executor holding a project, recorded on the gateway and answered with the tool's answer.
 */
export interface ProjectRelay {
  /** Every project announced since the gateway started, online or not, in the order first seen. */
  projects(): RelayProject[];
  call(call: RelayCall): Promise<Outcome>;
}

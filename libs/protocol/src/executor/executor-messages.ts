/**
 * The executor link's messages as TypeScript types, field for field the two published schemas
 * (executor-message.schema.ts, relay-message.schema.ts); executor-messages.unit.spec.ts keeps the
 * enumerations here equal to the schemas'.
 */

export const EXECUTOR_TOOL_NAMES = [
  'read_file',
  'list_files',
  'grep',
  'edit_file',
  'write_file',
  'run_command',
  'start_command',
  'get_command_output',
  'send_command_input',
  'kill_command',
] as const;
export type ExecutorToolName = (typeof EXECUTOR_TOOL_NAMES)[number];

export const EXECUTOR_TOOL_ERROR_CODES = [
  'LOCAL_EXECUTOR_OFFLINE',
  'TOOL_TIMEOUT',
  'CANCELLED',
  'PATH_ESCAPE',
  'PATH_NOT_FOUND',
  'TOOL_FAILED',
  'INVALID_ARGUMENTS',
  'UNKNOWN_TOOL',
  'UNKNOWN_PROJECT',
  'NO_ACTIVE_PROJECT',
  'FORBIDDEN',
  'APPROVAL_DECLINED',
  'APPROVAL_TIMEOUT',
  'INTERNAL_ERROR',
] as const;
export type ExecutorToolErrorCode = (typeof EXECUTOR_TOOL_ERROR_CODES)[number];

/** A project (a named directory root) the executor holds: `id` is stable, `slug` the name people use. */
export interface ExecutorProject {
  id: string;
  slug: string;
}

export interface HelloMessage {
  type: 'hello';
  protocolVersion: number;
  deviceId: string;
  cliVersion: string;
  platform: string;
  projects: ExecutorProject[];
  capabilities?: { prompt: boolean; tools: string[] };
}

export interface HeartbeatMessage {
  type: 'heartbeat';
  at?: number;
}

export interface PresenceMessage {
  type: 'presence';
  at: number;
}

export type ToolResult = { ok: true; value: unknown } | { ok: false; error: { code: ExecutorToolErrorCode; message: string } };

export interface ToolResultMessage {
  type: 'tool.result';
  requestId: string;
  durationMs: number;
  result: ToolResult;
}

export interface ApprovalAnswerMessage {
  type: 'approval.answer';
  id: string;
  approved: boolean;
}

export type ExecutorMessage = HelloMessage | HeartbeatMessage | PresenceMessage | ToolResultMessage | ApprovalAnswerMessage;

export interface HelloAckMessage {
  type: 'hello.ack';
  serverTime: number;
  heartbeatIntervalMs: number;
  latestCliVersion?: string;
  heartbeatMode?: 'auto';
}

export interface HeartbeatAckMessage {
  type: 'heartbeat.ack';
}

export interface RelayClient {
  name?: string;
  version?: string;
}

export interface RelayCommandPolicy {
  mode: 'allow_all' | 'allow_list' | 'read_only';
  allow: string[];
  deny: string[];
  shell: boolean;
  approve: boolean;
  tools: ExecutorToolName[] | null;
}

export interface ToolCallMessage {
  type: 'tool.call';
  requestId: string;
  projectId: string;
  tool: ExecutorToolName;
  arguments: unknown;
  client?: RelayClient;
  policy?: RelayCommandPolicy;
  issuedAt: number;
  expiresAt: number;
}

export interface CancelMessage {
  type: 'cancel';
  requestId: string;
}

export interface ShutdownMessage {
  type: 'shutdown';
  reason: string;
}

export interface ApprovalRequestMessage {
  type: 'approval.request';
  id: string;
  projectId: string;
  tool: ExecutorToolName;
  prompt: string;
  client?: RelayClient;
  expiresAt: number;
}

export interface ApprovalResolvedMessage {
  type: 'approval.resolved';
  id: string;
}

export type RelayMessage =
  | HelloAckMessage
  | HeartbeatAckMessage
  | ToolCallMessage
  | CancelMessage
  | ShutdownMessage
  | ApprovalRequestMessage
  | ApprovalResolvedMessage;

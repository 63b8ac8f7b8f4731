import type { JsonSchema } from '../catalog/operation-spec';
import { EXECUTOR_TOOL_NAMES } from './executor-messages';
import { EXECUTOR_SCHEMA_BASE, RELAY_MESSAGE_SCHEMA_PATH } from './executor-protocol';

/**
 * JSON Schema (2020-12) of every message on the executor link in one direction: what the gateway sends a connected executor,
 * one JSON text frame each. The body is the protocol's, unchanged; only $id and title are added so that
 * it publishes under schemas/executor/ like every other schema (docs/executors.md).
 */
export const RELAY_MESSAGE_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `${EXECUTOR_SCHEMA_BASE}/${RELAY_MESSAGE_SCHEMA_PATH}`,
  title: 'RelayMessage',
  oneOf: [
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'hello.ack' },
        serverTime: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        heartbeatIntervalMs: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        latestCliVersion: { type: 'string' },
        heartbeatMode: { type: 'string', const: 'auto' },
      },
      required: ['type', 'serverTime', 'heartbeatIntervalMs'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { type: 'string', const: 'heartbeat.ack' } },
      required: ['type'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'tool.call' },
        requestId: { type: 'string' },
        projectId: { type: 'string' },
        tool: {
          type: 'string',
          enum: [...EXECUTOR_TOOL_NAMES],
        },
        arguments: {},
        client: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } }, additionalProperties: false },
        policy: {
          type: 'object',
          properties: {
            mode: { type: 'string', enum: ['allow_all', 'allow_list', 'read_only'] },
            allow: { default: [], type: 'array', items: { type: 'string' } },
            deny: { default: [], type: 'array', items: { type: 'string' } },
            shell: { default: false, type: 'boolean' },
            approve: { default: false, type: 'boolean' },
            tools: {
              default: null,
              anyOf: [
                {
                  type: 'array',
                  items: {
                    type: 'string',
                    enum: [...EXECUTOR_TOOL_NAMES],
                  },
                },
                { type: 'null' },
              ],
            },
          },
          required: ['mode', 'allow', 'deny', 'shell', 'approve', 'tools'],
          additionalProperties: false,
        },
        issuedAt: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        expiresAt: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      required: ['type', 'requestId', 'projectId', 'tool', 'arguments', 'issuedAt', 'expiresAt'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { type: 'string', const: 'cancel' }, requestId: { type: 'string' } },
      required: ['type', 'requestId'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { type: 'string', const: 'shutdown' }, reason: { type: 'string' } },
      required: ['type', 'reason'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'approval.request' },
        id: { type: 'string' },
        projectId: { type: 'string' },
        tool: {
          type: 'string',
          enum: [...EXECUTOR_TOOL_NAMES],
        },
        prompt: { type: 'string' },
        client: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } }, additionalProperties: false },
        expiresAt: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      required: ['type', 'id', 'projectId', 'tool', 'prompt', 'expiresAt'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { type: 'string', const: 'approval.resolved' }, id: { type: 'string' } },
      required: ['type', 'id'],
      additionalProperties: false,
    },
  ],
};

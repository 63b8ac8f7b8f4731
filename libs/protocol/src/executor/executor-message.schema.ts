import type { JsonSchema } from '../catalog/operation-spec';
import { EXECUTOR_TOOL_ERROR_CODES } from './executor-messages';
import { EXECUTOR_MESSAGE_SCHEMA_PATH, EXECUTOR_SCHEMA_BASE } from './executor-protocol';

/**
 * JSON Schema (2020-12) of every message on the executor link in one direction: what a connected executor (`palimpsest connect`)
 * sends the gateway,
 * one JSON text frame each. The body is the protocol's, unchanged; only $id and title are added so that
 * it publishes under schemas/executor/ like every other schema (docs/executors.md).
 */
export const EXECUTOR_MESSAGE_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `${EXECUTOR_SCHEMA_BASE}/${EXECUTOR_MESSAGE_SCHEMA_PATH}`,
  title: 'ExecutorMessage',
  oneOf: [
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'hello' },
        protocolVersion: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        deviceId: { type: 'string' },
        cliVersion: { type: 'string' },
        platform: { type: 'string' },
        projects: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, slug: { type: 'string' } },
            required: ['id', 'slug'],
            additionalProperties: false,
          },
        },
        capabilities: {
          type: 'object',
          properties: { prompt: { type: 'boolean' }, tools: { maxItems: 64, type: 'array', items: { type: 'string', maxLength: 64 } } },
          required: ['prompt', 'tools'],
          additionalProperties: false,
        },
      },
      required: ['type', 'protocolVersion', 'deviceId', 'cliVersion', 'platform', 'projects'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'heartbeat' },
        at: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      required: ['type'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'presence' },
        at: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      required: ['type', 'at'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { type: 'string', const: 'tool.result' },
        requestId: { type: 'string' },
        durationMs: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        result: {
          oneOf: [
            {
              type: 'object',
              properties: { ok: { type: 'boolean', const: true }, value: {} },
              required: ['ok', 'value'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: {
                ok: { type: 'boolean', const: false },
                error: {
                  type: 'object',
                  properties: {
                    code: {
                      type: 'string',
                      enum: [...EXECUTOR_TOOL_ERROR_CODES],
                    },
                    message: { type: 'string' },
                  },
                  required: ['code', 'message'],
                  additionalProperties: false,
                },
              },
              required: ['ok', 'error'],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ['type', 'requestId', 'durationMs', 'result'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { type: 'string', const: 'approval.answer' }, id: { type: 'string' }, approved: { type: 'boolean' } },
      required: ['type', 'id', 'approved'],
      additionalProperties: false,
    },
  ],
};

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

export type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content?: { type: string; text?: string }[] };

export interface StdioTools {
  /** The tool's result as the client received it (a refusal included). */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
  stderrTail(): string;
}

/** An MCP server started as `node <args>` over stdio, connected with the SDK Client (tools listed, as a host does). */
export async function connectStdioTools(label: string, args: string[], env: Record<string, string>): Promise<StdioTools> {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: REPO_ROOT, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const client = new Client({ name: `bench (${label})`, version: '1.0.0' });
  await client.connect(transport).catch((e: Error) => {
    throw new Error(`${label}: ${e.message}\n${stderr}`);
  });
  await client.listTools();
  return {
    call: async (name, a) => (await client.callTool({ name, arguments: a })) as ToolResult,
    close: () => client.close(),
    stderrTail: () => stderr,
  };
}

/** The bytes of a result's text as sent (the JSON text of ours, the message of the filesystem server). */
export const textBytes = (r: ToolResult): number => (r.content ?? []).reduce((n, c) => n + Buffer.byteLength(c.text ?? '', 'utf8'), 0);

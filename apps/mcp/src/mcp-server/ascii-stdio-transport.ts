import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Every JSON-RPC line is pure ASCII: non-ASCII characters (and lone surrogates) are \u-escaped, so a
 * host decoding stdout with a legacy code page cannot corrupt it and U+2028/U+2029/U+0085 in document
 * text cannot split a line. Parsed values are identical.
 */
export function asciiLine(message: unknown): string {
  return `${JSON.stringify(message).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/**
 * Node writes process.stdout to a pipe synchronously: a large answer the client reads slowly stops the
 * event loop, and with it the reading of every running command's output (whose writer then blocks). A
 * socket of our own on the same descriptor writes without blocking; a file or terminal keeps process.stdout.
 */
export function stdoutWriter(): Writable {
  try {
    const stat = fstatSync(1);
    if (stat.isFIFO() || stat.isSocket()) {
      const socket = new Socket({ fd: 1, readable: false, writable: true });
      socket.on('error', () => undefined); // the client went away: its closed stdin ends the session
      return socket;
    }
  } catch {
    // no descriptor 1 to inspect: process.stdout says what happens
  }
  return process.stdout;
}

export class AsciiStdioServerTransport extends StdioServerTransport {
  constructor(private readonly out: Writable = stdoutWriter()) {
    super(process.stdin, out);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.out.write(asciiLine(message))) resolve();
      else settled(this.out, resolve);
    });
  }

  /** Every answer written before the process may exit. */
  override async close(): Promise<void> {
    await super.close();
    if (this.out === process.stdout || this.out.writableLength === 0 || this.out.destroyed) return;
    await new Promise<void>((resolve) => settled(this.out, resolve));
  }
}

/** Drained, or closed (a client gone) and never to drain. */
function settled(out: Writable, resolve: () => void): void {
  out.once('drain', resolve);
  out.once('close', resolve);
}

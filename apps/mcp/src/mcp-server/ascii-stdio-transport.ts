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

export class AsciiStdioServerTransport extends StdioServerTransport {
  constructor(private readonly out: Writable = process.stdout) {
    super(process.stdin, out);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.out.write(asciiLine(message))) resolve();
      else this.out.once('drain', resolve);
    });
  }
}

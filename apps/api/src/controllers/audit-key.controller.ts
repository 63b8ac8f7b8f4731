import { Controller, Inject, Res } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { GatewayEndpoint } from '../routes/endpoint.decorators';

/** The verifier key of the audit log's checkpoints, null when the audit log is off (docs/audit-log.md). */
export const AUDIT_VERIFIER_KEY = Symbol('AUDIT_VERIFIER_KEY');

/** /.well-known/palimpsest-audit-key: what a verifier checks signed checkpoints and bundles against. */
@Controller()
export class AuditKeyController {
  constructor(@Inject(AUDIT_VERIFIER_KEY) private readonly key: string | null) {}

  @GatewayEndpoint('audit_key')
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'The verifier key: `<name>+<key id>+<base64 Ed25519 key>` (C2SP signed note).' })
  @ApiResponse({ status: 404, description: 'The audit log is off (PALIMPSEST_AUDIT).' })
  serve(@Res() reply: FastifyReply) {
    if (this.key === null) void reply.code(404).type('text/plain').send('the audit log is off\n');
    else void reply.code(200).type('text/plain').send(`${this.key}\n`);
  }
}

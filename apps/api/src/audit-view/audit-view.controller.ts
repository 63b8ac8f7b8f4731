import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { bundleChunks } from '@palimpsest/core/audit/bundle-lines';
import { ApiRuntime } from '../api-runtime';
import { Access, type AuthenticatedRequest } from '../auth/scope.guard';
import { AUDIT_VERIFIER_KEY } from '../controllers/audit-key.controller';
import { gatewayError, invalidArgumentError } from '../errors/api-error';
import { AuditViewReads } from './audit-view.reads';
import { replayFragment, shellPage, targetFragment, verificationFragment, workspaceFragment } from './audit-view.render';
import { AUDIT_VIEW_SCRIPT } from './audit-view.script';
import { AUDIT_VIEW_CSS } from './audit-view.style';
import type { Html } from './html';
import { asOfFragment, diffFragment, timelineRows } from './timeline.render';

/** Only the gateway's own script and stylesheet run on the page: an escaping slip still could not run a script. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function send(reply: FastifyReply, type: string, body: string): void {
  void reply.code(200).type(type).header('Content-Security-Policy', CSP).header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-store').send(body);
}

const fragment = (reply: FastifyReply, body: Html) => send(reply, 'text/html; charset=utf-8', body.text);

function version(name: string, raw: string | undefined, optional = false): number | null {
  if ((raw === undefined || raw === '') && optional) return null;
  if (raw === undefined || !/^\d{1,9}$/.test(raw)) throw invalidArgumentError('audit_view', `invalid_${name}`, `${name} must be a version (a non-negative integer).`, { argument: name });
  return Number(raw);
}

/**
 * /audit: the auditor's read-only view. The page and its two assets hold no data and are public; every
 * fragment of data, and the bundle, needs the auditor scope (the global ScopeGuard). Not an API: kept out
 * of the OpenAPI document and the route table (docs/audit-log.md, "The auditor's view").
 */
@ApiExcludeController()
@Controller('audit')
export class AuditViewController {
  constructor(
    private readonly runtime: ApiRuntime,
    @Inject(AUDIT_VERIFIER_KEY) private readonly key: string | null,
  ) {}

  private reads(req: AuthenticatedRequest): AuditViewReads {
    return new AuditViewReads(this.runtime, req.principal);
  }

  @Get()
  @Access('public')
  page(@Res() reply: FastifyReply) {
    fragment(reply, shellPage());
  }

  @Get('assets/audit-view.js')
  @Access('public')
  script(@Res() reply: FastifyReply) {
    send(reply, 'text/javascript; charset=utf-8', AUDIT_VIEW_SCRIPT);
  }

  @Get('assets/audit-view.css')
  @Access('public')
  style(@Res() reply: FastifyReply) {
    send(reply, 'text/css; charset=utf-8', AUDIT_VIEW_CSS);
  }

  @Get('fragments/workspace')
  @Access('auditor')
  async workspace(@Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    fragment(reply, workspaceFragment(await this.reads(req).call('palimpsest_workspace_status', { limit: 500 })));
  }

  @Get('fragments/verification')
  @Access('auditor')
  async verification(@Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    const reads = this.reads(req);
    fragment(reply, verificationFragment(await reads.verification(this.key), await reads.replay()));
  }

  @Get('fragments/targets/:id')
  @Access('auditor')
  async target(@Param('id') id: string, @Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    const reads = this.reads(req);
    const events = await reads.timeline(id);
    const replay = await reads.call('palimpsest_replay', { target_file_id: id });
    const named = events.find((e) => e.type === 'WorkspaceFileBound' || e.type === 'TargetInitialized');
    const name = (named?.data?.path ?? named?.data?.filename ?? null) as string | null;
    fragment(reply, targetFragment({ targetId: id, name, replay, events, runs: await reads.commandRuns(events) }));
  }

  @Get('fragments/targets/:id/replay')
  @Access('auditor')
  async replay(@Param('id') id: string, @Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    fragment(reply, replayFragment(await this.reads(req).call('palimpsest_replay', { target_file_id: id })));
  }

  /** The live timeline's new rows: the target's events after `after` (a global position). */
  @Get('fragments/targets/:id/rows')
  @Access('auditor')
  async rows(@Param('id') id: string, @Query('after') after: string | undefined, @Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    const position = version('after', after)!;
    const events = await this.reads(req).timeline(id, position);
    const accepted = events.filter((e) => e.type === 'ProposalAccepted').at(-1);
    reply.header('X-Audit-Last-Position', String(events.at(-1)?.globalPosition ?? position));
    if (accepted) reply.header('X-Audit-Version', String(accepted.data.after_version));
    fragment(reply, timelineRows(events));
  }

  @Get('fragments/targets/:id/diff')
  @Access('auditor')
  async diff(@Param('id') id: string, @Query('from') from: string | undefined, @Query('to') to: string | undefined, @Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    const [start, end] = [version('from', from)!, version('to', to, true)];
    const args = { target_file_id: id, from: { version: start }, ...(end === null ? {} : { to: { version: end } }) };
    fragment(reply, diffFragment(await this.reads(req).call('palimpsest_diff_versions', args), start, end));
  }

  @Get('fragments/targets/:id/as-of')
  @Access('auditor')
  async asOf(@Param('id') id: string, @Query('version') at: string | undefined, @Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    const v = version('version', at)!;
    fragment(reply, asOfFragment(await this.reads(req).call('palimpsest_read_target', { target_file_id: id, as_of: { version: v }, length: 8000 }), v));
  }

  /** The bundle `palimpsest export` writes (the whole log, one event a line), as a download. */
  @Get('bundle')
  @Access('auditor')
  async bundle(@Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    const bundle = await this.reads(req).bundle(this.key);
    if (!bundle) throw gatewayError(404, 'not_found', 'audit_log_off', 'The audit log is off (PALIMPSEST_AUDIT): there is no bundle to export.');
    void reply
      .code(200)
      .type('application/x-ndjson')
      .header('Content-Disposition', 'attachment; filename="palimpsest-audit-bundle.jsonl"')
      .header('Cache-Control', 'no-store')
      .send(Readable.from(bundleChunks(bundle)));
  }
}

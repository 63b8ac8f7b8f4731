import { Controller, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ARCHIVE_BOUND_HELP, archiveBefore, archiveBoundOf, LogArchiveRefusedError } from '@palimpsest/store/log-archive';
import { listLogPartitions, rollLog } from '@palimpsest/store/log-partitions';
import { ApiRuntime } from '../api-runtime';
import { gatewayError, invalidArgumentError } from '../errors/api-error';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { GatewayEndpoint } from '../routes/endpoint.decorators';
import { AdminGuard } from './admin-access';
import { AdminLogArchiveRequest, AdminLogRollRequest } from './admin.dto';
import { STRICT_DTO } from './replay.controller';

/**
 * /v1/admin/log: `palimpsest log partitions|roll|archive` while a gateway holds the embedded store, so an
 * operator rolls and archives the log without stopping the service (docs/deployment.md, "The partitioned log").
 */
@Controller()
@UseGuards(AdminGuard)
export class AdminLogController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('admin_log_partitions')
  @ApiResponse({ status: 200, description: '{status: "ok", currentEpoch, attached: [...], archived: [...]}, as `palimpsest log partitions` prints it.' })
  async partitions(@Res() reply: FastifyReply) {
    void reply.code(200).send({ status: 'ok', ...(await listLogPartitions(this.runtime.db)) });
  }

  @GatewayEndpoint('admin_log_roll')
  @ApiBody({ type: AdminLogRollRequest })
  @ApiResponse({ status: 200, description: '{status: "ok", current_epoch}: appends go to the new partition from now on.' })
  async roll(@JsonBody(STRICT_DTO) body: AdminLogRollRequest, @Res() reply: FastifyReply) {
    // A roll that waited out its lock timeout is the database's transient failure: 503 lock_timeout, from the exception filter.
    void reply.code(200).send({ status: 'ok', current_epoch: await rollLog(this.runtime.db, { lockTimeoutMs: body.lock_timeout_ms }) });
  }

  @GatewayEndpoint('admin_log_archive')
  @ApiBody({ type: AdminLogArchiveRequest })
  @ApiResponse({ status: 200, description: '{status: "ok", archived: [...]}: the epochs detached into palimpsest_archive (none when no closed epoch lies wholly before the bound).' })
  async archive(@JsonBody(STRICT_DTO) body: AdminLogArchiveRequest, @Res() reply: FastifyReply) {
    const bound = archiveBoundOf(body.before);
    if (!bound) throw invalidArgumentError('admin_log_archive', 'invalid_before', `before ${JSON.stringify(body.before)} is ${ARCHIVE_BOUND_HELP}.`, { argument: 'before' });
    try {
      void reply.code(200).send({ status: 'ok', archived: await archiveBefore(this.runtime.db, bound) });
    } catch (error) {
      if (!(error instanceof LogArchiveRefusedError)) throw error;
      throw gatewayError(409, 'precondition_failed', 'archive_refused', error.message);
    }
  }
}

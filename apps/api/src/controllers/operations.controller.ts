import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';
import { OPERATION_ROUTES, type OperationRoute } from '../routes/route-table';

/**
 * Every catalog operation's HTTP route, registered from the route table: one method per entry, named
 * after its operation, so an operation is named once (in OPERATION_ROUTES) and a route can neither be
 * forgotten nor bound to the wrong operation. Method, path, scope and OpenAPI come from the table and
 * the catalog (OperationEndpoint); POST routes read their JSON body after the guards (JsonBody).
 */
@Controller()
export class OperationsController {
  constructor(readonly runner: OperationRunner) {}
}

type RouteMethod = (this: OperationsController, req: FastifyRequest, reply: FastifyReply, body?: unknown) => Promise<void>;

function bindRoute(route: OperationRoute): void {
  const prototype = OperationsController.prototype as unknown as Record<string, RouteMethod>;
  const key = route.operation;
  const method: RouteMethod = function (req, reply, body) {
    return this.runner.run(route.operation, req, reply, route.method === 'POST' ? body : undefined);
  };
  Object.defineProperty(prototype, key, { value: method, writable: true, configurable: true, enumerable: false });
  Req()(prototype, key, 0);
  Res()(prototype, key, 1);
  if (route.method === 'POST') JsonBody()(prototype, key, 2);
  OperationEndpoint(route.operation)(prototype, key, Object.getOwnPropertyDescriptor(prototype, key)!);
}

for (const route of OPERATION_ROUTES) bindRoute(route);

import { applyDecorators, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation } from '@nestjs/swagger';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import { Access } from '../auth/scope.guard';
import { operationDocs } from '../openapi/operation-docs';
import { gatewayRoute, routeOf, specOf, type GatewayRouteName, type HttpMethod } from './route-table';

const mapping = (method: HttpMethod, path: string) => (method === 'GET' ? Get(path) : Post(path));

/**
 * Binds a controller method to a catalog operation's route: method, path, scope and OpenAPI, all from
 * the table and the catalog. (The OpenAPI tag is the controller's name: one per resource.)
 */
export function OperationEndpoint(operation: OperationName): MethodDecorator {
  const route = routeOf(operation);
  return applyDecorators(mapping(route.method, route.path), Access(route.scope), ...operationDocs(route, specOf(operation)));
}

/**
 * Binds a controller method to one of the gateway's own routes. Its responses (every status in the
 * route table) are written by completeDocument; a controller's own @ApiResponse lends its success
 * description. `_ownDocs` names statuses the controller describes itself (kept for its callers).
 */
export function GatewayEndpoint(name: GatewayRouteName, _ownDocs: number[] = []): MethodDecorator {
  const route = gatewayRoute(name);
  const docs = [ApiOperation({ operationId: name, summary: route.summary, description: `Access: \`${route.access}\`.` })];
  if (route.access !== 'public') docs.push(ApiBearerAuth('bearer'));
  return applyDecorators(mapping(route.method, route.path), Access(route.access), ...docs);
}

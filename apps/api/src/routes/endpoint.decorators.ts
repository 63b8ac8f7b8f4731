import { applyDecorators, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation } from '@nestjs/swagger';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import { Access } from '../auth/scope.guard';
import { errorResponse, operationDocs } from '../openapi/operation-docs';
import { gatewayRoute, routeOf, specOf, type HttpMethod } from './route-table';

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
 * Binds a controller method to one of the gateway's own routes. Error statuses get the ErrorBody
 * schema unless the controller documents them itself (`ownDocs`), as it does its 2xx answer.
 */
export function GatewayEndpoint(name: string, ownDocs: number[] = []): MethodDecorator {
  const route = gatewayRoute(name);
  const docs = [ApiOperation({ operationId: name, summary: route.summary, description: `Access: \`${route.access}\`.` })];
  if (route.access !== 'public') docs.push(ApiBearerAuth('bearer'));
  const errors = route.statuses.filter((s) => s >= 400 && !ownDocs.includes(s)).map(errorResponse);
  return applyDecorators(mapping(route.method, route.path), Access(route.access), ...docs, ...errors);
}

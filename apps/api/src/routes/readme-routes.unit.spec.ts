import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_ROUTES, OPERATION_ROUTES, concretePath, readmeRow } from './route-table';

/** The README's route table is the route table: a route added, moved or re-scoped there shows here. */
describe("the README's HTTP route table", () => {
  const readme = readFileSync(join(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
  const rows = readme.split('\n').filter((line) => /^\| `(GET|POST) /.test(line));

  it('lists every catalog route, in the table order, as the route table renders it', () => {
    const rendered = OPERATION_ROUTES.map(readmeRow);
    expect(rows.slice(0, rendered.length)).toEqual(rendered);
  });

  it("names every gateway route in a row with the route's access", () => {
    const gatewayRows = rows.slice(OPERATION_ROUTES.length);
    // A row may name several routes: `GET /health`, `/metrics`, `…/decline` (a path ending).
    const names = (item: string, path: string) => {
      const p = item.replace(/`/g, '').trim().replace(/^(GET|POST) /, '');
      return p.startsWith('…') ? path.endsWith(p.slice(1)) : p === path;
    };
    for (const route of GATEWAY_ROUTES) {
      const path = concretePath(route.path);
      const row = gatewayRows.find((line) => line.split('|')[1]!.split(',').some((item) => names(item, path)));
      expect({ route: route.name, access: row?.split('|')[3]?.trim() }).toEqual({ route: route.name, access: route.access });
    }
  });
});

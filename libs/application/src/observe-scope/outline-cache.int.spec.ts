import { structureEngine } from '@palimpsest/structure/structure-engine';
import { OutlineCache } from './outline-cache';

const head = (n: number, content: string) => ({ target_id: `t${n}`, version: 0, current_hash: `h${n}`, content });

describe('OutlineCache (real engine)', () => {
  it('answers a (target, version, hash) from the cache and evicts the least recently used', async () => {
    const cache = new OutlineCache(structureEngine(), 2);
    const first = await cache.outline(head(1, '{"a": 1}'), 'json');
    expect(first.symbols.map((s) => s.name)).toEqual(['a']);
    expect(await cache.outline(head(1, 'ignored: the version is cached'), 'json')).toBe(first);
    await cache.outline(head(2, '{"b": 1}'), 'json');
    await cache.outline(head(1, '{"a": 1}'), 'json'); // t1 used last
    await cache.outline(head(3, '{"c": 1}'), 'json');
    expect([cache.has('t1', 0, 'h1'), cache.has('t2', 0, 'h2'), cache.has('t3', 0, 'h3')]).toEqual([true, false, true]);
    expect(cache.size).toBe(2);
  });

  it('is bounded by the size of the texts it describes', async () => {
    const cache = new OutlineCache(structureEngine(), 100, 20);
    await cache.outline(head(1, '{"a": 1, "b": 2}'), 'json');
    await cache.outline(head(2, '{"c": 1, "d": 2}'), 'json');
    expect([cache.has('t1', 0, 'h1'), cache.has('t2', 0, 'h2')]).toEqual([false, true]);
  });
});

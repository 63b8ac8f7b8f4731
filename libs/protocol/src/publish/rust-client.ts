import { PROTOCOL_RESULT_SCHEMA, PROTOCOL_VERSION } from '../protocol-methods/protocol-methods';
import { wireMethods, type WireMethod } from '../protocol-methods/wire-methods';
import { RUST_CLIENT_CODE } from './rust-client-code';
import { RUST_JSON_CODE } from './rust-json-code';

/** A directory module: `mod palimpsest_client;` in a crate whose src/ holds the folder. */
export const RUST_CLIENT_DIR = 'clients/rust/palimpsest_client';

const slice = (items: readonly string[]) => `&[${items.map((s) => JSON.stringify(s)).join(', ')}]`;

function methodLine(m: WireMethod): string {
  return [
    `    Method { name: ${JSON.stringify(m.name)}, protocol: ${m.kind === 'protocol'}, read_only: ${m.readOnly},`,
    `        required: ${slice(m.required)}, allowed: ${slice(m.allowed)},`,
    `        statuses: ${slice(m.statuses)}, success: ${slice(m.success)} },`,
  ].join('\n');
}

/**
 * clients/rust/palimpsest_client/: one module of pure request/result helpers for `palimpsest serve`,
 * std only (its json.rs is a small JSON value, reader and ASCII writer), so `cargo build --offline` needs
 * nothing from outside. The method table is the catalog's, generated, in sorted order.
 */
export function rustClientFiles(): Map<string, string> {
  return new Map([
    [`${RUST_CLIENT_DIR}/mod.rs`, rustClientSource()],
    [`${RUST_CLIENT_DIR}/json.rs`, `${GENERATED}\n${RUST_JSON_CODE}`],
  ]);
}

const GENERATED = '// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.';

/** mod.rs: the method table, the request encoder and the response decoder. */
export function rustClientSource(): string {
  return [
    GENERATED,
    `//! Request/result helpers for \`palimpsest serve\` (${PROTOCOL_VERSION}).`,
    '//!',
    '//! Pure: they encode requests and decode response lines, and perform no I/O; the host owns the',
    '//! process and its streams. std only: add this folder to a crate\'s src/ and declare `mod palimpsest_client;`.',
    '#![allow(dead_code)]',
    '',
    'mod json;',
    'pub use json::Json;',
    '',
    `pub const PROTOCOL_VERSION: &str = ${JSON.stringify(PROTOCOL_VERSION)};`,
    `pub const PROTOCOL_RESULT_SCHEMA: &str = ${JSON.stringify(PROTOCOL_RESULT_SCHEMA)};`,
    'pub const JSONRPC_VERSION: &str = "2.0";',
    'pub const MAX_ID_UTF8_BYTES: usize = 128;',
    '',
    '/// One method: protocol (a method of the protocol itself) or a catalog operation; read_only: served by',
    '/// the read-only profile; argument names; every status it answers with, and those that mean success.',
    '#[derive(Debug)]',
    'pub struct Method {',
    '    pub name: &\'static str,',
    '    pub protocol: bool,',
    '    pub read_only: bool,',
    '    pub required: &\'static [&\'static str],',
    '    pub allowed: &\'static [&\'static str],',
    '    pub statuses: &\'static [&\'static str],',
    '    pub success: &\'static [&\'static str],',
    '}',
    '',
    '/// Every method, sorted by name.',
    'pub const METHODS: &[Method] = &[',
    ...wireMethods().map(methodLine),
    '];',
    '',
    RUST_CLIENT_CODE,
  ].join('\n');
}

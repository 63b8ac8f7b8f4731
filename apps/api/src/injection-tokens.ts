/** Nest injection tokens for the values the gateway is started with (not classes). */
export const DB = Symbol('palimpsest.db');
export const APP_CONTEXT = Symbol('palimpsest.app-context');
export const API_CONFIG = Symbol('palimpsest.api-config');

// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** Set the active project: Make a project (name or id) active for this client: later file and command calls without project run there, in every conversation of this client. */
export type SetActiveProjectParams = {
  project: string;
};

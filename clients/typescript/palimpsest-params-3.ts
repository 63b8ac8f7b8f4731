// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.

/** Get the active project: The project this client's file and command tools run in; NO_ACTIVE_PROJECT: list the projects and ask the user which. */
export type GetActiveProjectParams = Record<string, never>;

/** Set the active project: Make a project (name or id) active for this client: later file and command calls without project run there, in every conversation of this client. */
export type SetActiveProjectParams = {
  project: string;
};

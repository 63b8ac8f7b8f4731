/** An operation's answer: its status word (the catalog's result schema lists them) and that status's fields. */
export type Answer<S extends string = string> = { status: S; [field: string]: unknown };

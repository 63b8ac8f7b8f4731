/** How often a bounded read-your-writes wait looks again. */
export const POLL_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `check` until it says true or `budgetMs` has passed (asking once more at the end): its last answer. */
export async function pollUntil(check: () => Promise<boolean>, budgetMs: number): Promise<boolean> {
  const started = performance.now();
  let done = await check();
  while (!done && performance.now() - started < budgetMs) {
    await sleep(Math.min(POLL_MS, Math.max(1, budgetMs - (performance.now() - started))));
    done = await check();
  }
  return done;
}

/** A wake-up that is not lost when it fires while nobody sleeps: the next sleep() then returns at once. */
export class Wakeup {
  private pending = false;
  private waiter: (() => void) | null = null;

  fire(): void {
    this.pending = true;
    this.waiter?.();
  }

  /** Resolves after `ms`, or at the first fire() (a fire since the last sleep counts). */
  async sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.waiter = null;
        resolve();
      }
      this.waiter = done;
    });
    this.pending = false;
  }
}

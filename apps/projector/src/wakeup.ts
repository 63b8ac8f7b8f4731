/** A wake-up that is not lost when it fires while nobody sleeps: the next sleep() then returns at once. */
export class Wakeup {
  private pending = false;
  private waiter: (() => void) | null = null;

  fire(): void {
    this.pending = true;
    this.waiter?.();
  }

  /** Resolves after `ms`, or at the first fire() (a fire since the last sleep counts): true when woken by a fire. */
  async sleep(ms: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return true;
    }
    const fired = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      const self = this;
      function done(woken: boolean): void {
        clearTimeout(timer);
        self.waiter = null;
        resolve(woken);
      }
      this.waiter = () => done(true);
    });
    this.pending = false;
    return fired;
  }
}

// A clock's timer (the schedule clock, the flow clock): `tick` every `ms`, never two at once (a tick
// still running when the next is due makes that one skip), unref'd so it never keeps a process up.
// Its stop clears the timer and waits for a tick under way.

export function tickEvery(
  ms: number,
  tick: () => Promise<unknown>,
  onError: (err: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch(onError)
      .finally(() => (running = null));
  }, ms);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

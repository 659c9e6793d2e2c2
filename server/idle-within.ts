/**
 * How a background worker stops: true once `idle` resolves, or false when `graceMs` passes first
 * (what is still running then is left to the next start). No grace limit: waits for idle.
 */
export async function idleWithin(idle: () => Promise<void>, graceMs: number): Promise<boolean> {
  if (!Number.isFinite(graceMs)) {
    await idle();
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
  const finished = await Promise.race([idle().then(() => true as const), late]);
  clearTimeout(timer);
  return finished;
}

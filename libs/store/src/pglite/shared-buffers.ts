/** What is wrong with a shared_buffers value, or undefined when it is a size such as 32MB. */
export function sharedBuffersProblem(value: string): string | undefined {
  return /^[1-9]\d*(kB|MB|GB)$/.test(value) ? undefined : `must be a size such as 32MB (a whole number and kB, MB or GB), not ${JSON.stringify(value)}`;
}

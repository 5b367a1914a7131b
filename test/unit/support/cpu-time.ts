/**
 * The clock of the cost tests: milliseconds of CPU this process has used (user + system, all its
 * threads), where `performance.now()` would count wall time. `npm test` runs these tests beside
 * other checks on two cores; a run that waits for a core then looks slow on the wall clock, while
 * its CPU time only grows with the work it does.
 */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// Preloaded (`node --require`) into a process a benchmark measures: prints the process's processor time as it exits,
// user and system, of all its threads (what the OS counts for it, unlike the wall time, which includes waiting).
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`CPU_MS ${(user + system) / 1000}\n`);
});

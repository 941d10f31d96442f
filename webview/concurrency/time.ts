const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** A window's start as the chart, its readout and its table say it: weekday, date and time in UTC. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

// A chat kept going for 30 minutes with streamed answers, in a real VS Code extension host (code-server) with the
// production bundle and the chat's webview in Chromium (test/integration/chatSoak.bench.ts): the messaging API at the
// local platform's pace, one message after another's complete answer, conversations of 20 turns started anew with
// Restart, the panel closed and opened again every five conversations. The extension host's heap and resident
// memory (after a full collection) at the start, once a first conversation has warmed everything up, and at the end
// must stay within 10% of each other; the turns' times at the start and the end show whether anything slowed down.
// AGENT_WORKBENCH_SOAK_MINUTES=2 makes a quick check of it (its rows then say 2 minutes); 30 unless set.
import { editorFigures } from './editorFigures';
import { bench } from './platformProcess';

const minutes = Number(process.env.AGENT_WORKBENCH_SOAK_MINUTES ?? 30);
if (!(minutes > 0)) throw new Error('AGENT_WORKBENCH_SOAK_MINUTES is a number of minutes above 0');
// Building, starting the editor and the warm-up come on top of the soak itself.
const limitMs = (minutes + 15) * 60_000;
console.log(`BENCH_TIME_LIMIT_MS ${limitMs + 60_000}`);
const m = editorFigures(
  'Chat soak figures',
  [
    'soakMinutes',
    'soakTurns',
    'soakConversations',
    'soakPieces',
    'soakHeapStartMB',
    'soakHeapEndMB',
    'soakHeapMaxMB',
    'soakRssStartMB',
    'soakRssEndMB',
    'soakTurnP95FirstMs',
    'soakTurnP95LastMs',
    'soakTurnP50Ms',
  ],
  { timeoutMs: limitMs },
  { AGENT_WORKBENCH_SOAK_MINUTES: String(minutes) },
);
const soak = `chat soak, ${Math.round(m.soakMinutes)} minutes of streamed answers (${m.soakTurns} turns, ${m.soakConversations} conversations)`;
const change = (end: number, start: number) => ((end - start) / start) * 100;
bench(
  `${soak}: the extension host's heap at the end against the start (after a full collection)`,
  change(m.soakHeapEndMB, m.soakHeapStartMB),
  '%',
  '<= 10',
);
bench(
  `${soak}: the extension host's resident memory at the end against the start`,
  change(m.soakRssEndMB, m.soakRssStartMB),
  '%',
  '<= 10',
);
bench(`${soak}: the extension host's heap at the start`, m.soakHeapStartMB, 'MB');
bench(`${soak}: the extension host's heap at the end`, m.soakHeapEndMB, 'MB');
bench(`${soak}: the extension host's heap at most (read every minute)`, m.soakHeapMaxMB, 'MB');
bench(`${soak}: the extension host's resident memory at the start`, m.soakRssStartMB, 'MB');
bench(`${soak}: the extension host's resident memory at the end`, m.soakRssEndMB, 'MB');
bench(`${soak}: a turn, from the message sent to its answer complete in the panel, median`, m.soakTurnP50Ms, 'ms');
bench(`${soak}: the same, p95 of the first 5 minutes`, m.soakTurnP95FirstMs, 'ms');
bench(`${soak}: the same, p95 of the last 5 minutes`, m.soakTurnP95LastMs, 'ms');

// The transcript viewer in a real VS Code extension host (code-server) with the production bundle and the
// webview in Chromium: the first 500 rows of a page from their data leaving the extension host to the
// webview's page (median and worst of 7 runs), and a conversation of 2,000 turns from its record leaving
// the extension host to its timeline in the page (opened from its row beside the list, read again into
// an open panel, and in a new panel), how long from the command (the platform's answer included), how
// many row or turn elements the page holds while scrolled, and what a new empty webview panel costs.
import { editorFigures } from './editorFigures';

const keys = [
  'listRowsToPageMedianMs',
  'listRowsToPageMaxMs',
  'listRowElements',
  'longConversationOpenMedianMs',
  'longConversationShowMedianMs',
  'longConversationCommandToPageMedianMs',
  'longConversationElements',
  'longConversationFromListMedianMs',
  'longConversationFromListMaxMs',
  'longConversationClickToPageMedianMs',
  'emptyPanelMedianMs',
] as const;
const metrics = editorFigures('Transcript viewer figures', keys, { timeoutMs: 900_000 });
const round = (n: number): number => Math.round(n * 10) / 10;
const line = (name: string, value: number, unit: string, target?: string) =>
  console.log(`BENCH ${JSON.stringify({ name, value: round(value), unit, ...(target ? { target } : {}) })}`);
line(
  'transcripts: first 500 rows from their data to the webview page, median',
  metrics.listRowsToPageMedianMs,
  'ms',
  '< 200',
);
line(
  'transcripts: first 500 rows from their data to the webview page, worst of 7',
  metrics.listRowsToPageMaxMs,
  'ms',
  '< 200',
);
line('transcripts: row elements in the page with 500 rows listed', metrics.listRowElements, 'elements', '<= 300');
line(
  'transcripts: a 2,000-turn conversation opened from its row, beside the list: from its record to its timeline in the page, median of 7',
  metrics.longConversationFromListMedianMs,
  'ms',
  '< 300',
);
line(
  'transcripts: a 2,000-turn conversation opened from its row, beside the list: from its record to its timeline in the page, worst of 7',
  metrics.longConversationFromListMaxMs,
  'ms',
  '< 300',
);
line(
  'transcripts: a 2,000-turn conversation opened from its row, beside the list: from the click reaching the extension host to its timeline in the page, median',
  metrics.longConversationClickToPageMedianMs,
  'ms',
  '< 300',
);
line(
  'transcripts: a 2,000-turn conversation read again into its open panel, from its record to its timeline in the page, median',
  metrics.longConversationShowMedianMs,
  'ms',
  '< 300',
);
line(
  'transcripts: a 2,000-turn conversation in a new panel (Open Conversation by Id, Ctrl+click), from its record to its timeline; the new page loads meanwhile, median',
  metrics.longConversationOpenMedianMs,
  'ms',
);
line(
  'transcripts: a new webview panel with an empty page, from its creation to its script running (what any new panel costs in this editor), median of 7',
  metrics.emptyPanelMedianMs,
  'ms',
);
line(
  'transcripts: a 2,000-turn conversation from the command to the page (platform answer included), median',
  metrics.longConversationCommandToPageMedianMs,
  'ms',
);
line(
  'transcripts: row and turn elements in the page while a 2,000-turn conversation is scrolled (in its panel, or beside the list)',
  metrics.longConversationElements,
  'elements',
  '<= 300',
);

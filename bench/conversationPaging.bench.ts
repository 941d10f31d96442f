// The transcript viewer paging through 100,000 conversations, in a real VS Code extension host (code-server) with
// the production bundle and the webview in Chromium: the local platform the editor starts is given 100,000
// finished conversations over 30 days (one admin call), and the list (Any time, oldest first, as it opens) is read
// to its end a page of 500 at a time, as the page asks when scrolled near its end. Each page is timed from the ask to
// its rows drawn in the page; the extension host's heap and resident memory (after a full collection) are read
// before the list opens, every 20 pages, and after it is closed.
import { editorFigures } from './editorFigures';
import { bench } from './platformProcess';

const keys = [
  'pagingSeedMs',
  'pagingFirstPageMs',
  'pagingPagesRead',
  'pagingPageMedianMs',
  'pagingPageMaxMs',
  'pagingDeepPageMedianMs',
  'pagingHeapBeforeMB',
  'pagingHeapMaxMB',
  'pagingHeapAfterMB',
  'pagingRssBeforeMB',
  'pagingRssMaxMB',
  'pagingHeapClosedMB',
] as const;
const m = editorFigures('Conversation paging figures', keys, { timeoutMs: 900_000 });
bench('transcripts, 100,000 conversations: the local platform seeded with them (one admin call)', m.pagingSeedMs, 'ms');
bench(
  'transcripts, 100,000 conversations: the first page of 500, from Open Conversations to its rows drawn',
  m.pagingFirstPageMs,
  'ms',
  '< 1000',
);
bench(
  `transcripts, 100,000 conversations: a page of 500 at depth (the last 20 of ${m.pagingPagesRead} pages, rows 90,000 to 100,000), from the page's ask to its rows drawn, median`,
  m.pagingDeepPageMedianMs,
  'ms',
  '< 500',
);
bench('transcripts, 100,000 conversations: a page of 500, median of all pages', m.pagingPageMedianMs, 'ms', '< 500');
bench('transcripts, 100,000 conversations: the slowest page', m.pagingPageMaxMs, 'ms');
bench(
  "transcripts, 100,000 conversations: the extension host's heap at most while paging, less before the list opened (after a full collection)",
  m.pagingHeapMaxMB - m.pagingHeapBeforeMB,
  'MB',
  '< 100',
);
bench("transcripts: the extension host's heap before the list opened", m.pagingHeapBeforeMB, 'MB');
bench('transcripts: the same with 100,000 conversations listed', m.pagingHeapAfterMB, 'MB');
bench(
  'transcripts: the same after the list of 100,000 was closed, less before it opened',
  m.pagingHeapClosedMB - m.pagingHeapBeforeMB,
  'MB',
  '< 10',
);
bench(
  "transcripts, 100,000 conversations: the extension host's resident memory at most while paging, less before",
  m.pagingRssMaxMB - m.pagingRssBeforeMB,
  'MB',
);

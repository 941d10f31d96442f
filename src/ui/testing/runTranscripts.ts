import * as vscode from 'vscode';
import type { ConversationLine } from '../../agentTests/model/types';
import { Command } from '../ids';

/** The scheme of a judged run's conversation, as read-only documents: a judge's quote opens its turn there. */
export const RUN_TRANSCRIPT_SCHEME = 'agent-workbench-test-run';

/** Where a quote points: the conversation of one run of a case, a turn, and the words quoted. */
export interface QuoteTarget {
  readonly transcript: string;
  readonly turn: number;
  readonly text: string;
}

const KEPT = 200;

/**
 * The conversations of the runs made since activation (the newest 200), one line per turn (`turn 3 · agent: …`), as
 * documents of their own: the run's output, where the judge's quotes are linked to the turn they quote.
 */
export class RunTranscripts implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;

  /** Keeps a run's conversation; returns the name its quotes link to. */
  keep(title: string, conversation: readonly ConversationLine[]): string {
    const name = `/${++this.next}/${title.replace(/[\\/?#%]/g, ' ')}.txt`;
    this.texts.set(name, transcriptText(title, conversation));
    if (this.texts.size > KEPT) {
      const oldest = this.texts.keys().next();
      if (!oldest.done) this.texts.delete(oldest.value);
    }
    return name;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? vscode.l10n.t('This run is no longer kept: run the test again.');
  }

  /** Opens the conversation at the quoted turn with the quoted words selected; resolves the selected text. */
  async show(target: QuoteTarget): Promise<string | undefined> {
    const uri = vscode.Uri.from({ scheme: RUN_TRANSCRIPT_SCHEME, path: target.transcript });
    const doc = await vscode.workspace.openTextDocument(uri);
    const prefix = `turn ${target.turn} · `;
    let range = new vscode.Range(0, 0, 0, 0);
    for (let line = 0; line < doc.lineCount; line++) {
      const text = doc.lineAt(line).text;
      if (!text.startsWith(prefix)) continue;
      const quoted = oneLine(target.text);
      const at = text.indexOf(quoted);
      range =
        at >= 0 && quoted
          ? new vscode.Range(line, at, line, at + quoted.length)
          : new vscode.Range(line, 0, line, text.length);
      break;
    }
    const editor = await vscode.window.showTextDocument(doc, { selection: range, preview: true });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return doc.getText(range);
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.workspace.registerTextDocumentContentProvider(RUN_TRANSCRIPT_SCHEME, this),
      vscode.commands.registerCommand(Command.showJudgedQuote, (target: QuoteTarget | undefined) =>
        target ? this.show(target) : undefined,
      ),
    );
  }
}

/** One line per turn, newlines inside a message kept on its line, so a turn's line is where its quotes are. */
export function transcriptText(title: string, conversation: readonly ConversationLine[]): string {
  const lines = [`── ${title}`];
  for (const c of conversation) {
    lines.push(`turn ${c.turn} · ${c.role}: ${oneLine(c.text)}`);
    if (c.handoff) lines.push(`    (handoff to ${c.handoff.destination ?? '?'}: ${c.handoff.reason ?? ''})`);
    if (c.ended) lines.push('    (the agent ended the conversation)');
  }
  return `${lines.join('\n')}\n`;
}

/** A link that opens a quote's turn, for a trusted MarkdownString. */
export function quoteLink(target: QuoteTarget): string {
  return `command:${Command.showJudgedQuote}?${encodeURIComponent(JSON.stringify(target))}`;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ⏎ ');
}
